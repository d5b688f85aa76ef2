import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawStore

@Suite("SQLite store full-text search")
struct SearchTests {
    private func seededStore() async throws -> SQLiteChatStore {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        try await store.record(
            [
                stored("a1", text: "Let's plan the garden: tomatoes, basil and a lemon tree.", timestampMs: 1),
                stored(
                    "a2",
                    text: """
                        The weather report for tomorrow says rain in the morning, sun in the afternoon, and a \
                        light breeze from the west; a good day to plant tomatoes after lunch.
                        """,
                    role: .assistant, timestampMs: 2),
            ],
            gateway: "home", sessionKey: "garden")
        try await store.record(
            [
                stored("b1", text: "Tomatoes tomatoes tomatoes!", timestampMs: 3),
                stored("b2", text: "Book a table at the Café Zürich", role: .assistant, timestampMs: 4),
            ],
            gateway: "home", sessionKey: "errands")
        try await store.record(
            [stored("w1", text: "Quarterly tomatoes report for the board", timestampMs: 5)],
            gateway: "work", sessionKey: "main")
        return store
    }

    @Test func findsWordsAcrossSessionsBestMatchFirst() async throws {
        let store = try await seededStore()
        let hits = try await store.search("tomatoes", gateway: "home", limit: 10)
        #expect(Set(hits.map(\.sessionKey)) == ["garden", "errands"])
        #expect(hits.count == 3)
        // Three occurrences in a short message beat one in a long one.
        #expect(hits.first?.messageId == "row-b1")
        #expect(hits.last?.messageId == "row-a2")
        #expect(hits.first?.gateway == "home")
        #expect(hits.first?.timestampMs == 3)
        #expect(hits.first?.role == .user)
    }

    @Test func aWordInThousandsOfMessagesListsTheLatestRecordedFirst() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        let count = SearchQuery.broadMatchCount + 200
        for first in stride(from: 0, to: count, by: 400) {
            let page = (first..<min(count, first + 400)).map { index in
                // The first messages say it three times: bm25 would put them first.
                let text = index < 3 ? "deploy deploy deploy" : "the deploy of build \(index) went out"
                return stored("d\(index)", text: text, timestampMs: index)
            }
            try await store.record(page, gateway: "home", sessionKey: "ops")
        }
        try await store.record(
            [
                stored("w1", text: "deploy deploy deploy", timestampMs: 1),
                stored("w2", text: "a deploy at work, and a long day of meetings after it", timestampMs: 2),
            ], gateway: "work", sessionKey: "m")
        // Scoped to a gateway with few matches, the thousands elsewhere do not count: still ranked.
        #expect(try await store.search("deploy", gateway: "work", limit: 2).map(\.messageId) == ["row-w1", "row-w2"])
        let hits = try await store.search("deploy", gateway: "home", limit: 3)
        #expect(hits.map(\.messageId) == ["row-d\(count - 1)", "row-d\(count - 2)", "row-d\(count - 3)"])
        #expect(hits.allSatisfy { $0.gateway == "home" && $0.snippet.contains("[deploy]") })
        // A narrow query is still ranked (`findsWordsAcrossSessionsBestMatchFirst` checks bm25's order).
        let narrow = try await store.search("build 7 went", gateway: "home", limit: 1)
        #expect(narrow.first?.messageId == "row-d7")
    }

    /// With one gateway stored, the matches are counted in the index alone: the answers are the ones the
    /// count joined to each message gave, scoped to that gateway or not, and none for a gateway not stored.
    @Test func aStoreOfOneGatewayAnswersAsBeforeScopedOrNot() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        let count = SearchQuery.broadMatchCount + 50
        let page = (0..<count).map { index in
            stored(
                "d\(index)", text: index < 3 ? "deploy deploy deploy" : "the deploy of build \(index)",
                timestampMs: index)
        }
        try await store.record(page, gateway: "home", sessionKey: "ops")
        let latest = ["row-d\(count - 1)", "row-d\(count - 2)"]
        #expect(try await store.search("deploy", gateway: "home", limit: 2).map(\.messageId) == latest)
        #expect(try await store.search("deploy", gateway: nil, limit: 2).map(\.messageId) == latest)
        // Another gateway's name matches nothing, whatever the index counts.
        #expect(try await store.search("deploy", gateway: "work", limit: 2).isEmpty)
    }

    /// A ranked query of many matches makes its snippets for the rows shown only, unless its last word is a
    /// prefix (each lookup would merge the prefix's words again): both ways give the same hits, in order.
    @Test func bothWaysOfMakingSnippetsGiveTheSameRankedHits() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        let count = SearchQuery.snippetEveryMatchCount + 150
        #expect(count <= SearchQuery.broadMatchCount, "ranked, not broad")
        let page = (0..<count).map { index in
            let text =
                index % 7 == 0
                ? "rollout rollout notes for build \(index)"
                : "the rollout of build \(index) went out after a long review of everything in it"
            return stored("r\(index)", text: text, timestampMs: index)
        }
        try await store.record(page, gateway: "home", sessionKey: "ops")
        let winnersOnly = try await store.search("rollout ", gateway: "home", limit: 20)
        let everyMatch = try await store.search("rollout", gateway: "home", limit: 20)
        #expect(winnersOnly.count == 20)
        #expect(winnersOnly == everyMatch)
        #expect(winnersOnly.prefix(3).allSatisfy { $0.snippet.contains("[rollout] [rollout]") })
        #expect(winnersOnly.allSatisfy { $0.snippet.contains("[rollout]") })
    }

    @Test func snippetsMarkMatchesAndElideLongText() async throws {
        let store = try await seededStore()
        let hit = try #require(try await store.search("breeze", gateway: nil, limit: 1).first)
        #expect(hit.messageId == "row-a2")
        #expect(hit.role == .assistant)
        #expect(hit.snippet.contains("[breeze]"))
        #expect(hit.snippet.contains("…"))
        let short = try #require(try await store.search("lemon", gateway: nil, limit: 1).first)
        #expect(short.snippet == "Let's plan the garden: tomatoes, basil and a [lemon] tree.")
    }

    @Test func gatewaysAreKeptApartUnlessNil() async throws {
        let store = try await seededStore()
        #expect(try await store.search("quarterly", gateway: "home", limit: 10).isEmpty)
        #expect(try await store.search("quarterly", gateway: "work", limit: 10).map(\.messageId) == ["row-w1"])
        let everywhere = try await store.search("tomatoes", gateway: nil, limit: 10)
        #expect(Set(everywhere.map(\.gateway)) == ["home", "work"])
        #expect(everywhere.count == 4)
        #expect(try await store.search("tomatoes", gateway: nil, limit: 2).count == 2)
    }

    @Test func everyWordMustMatchAndTheLastIsAPrefix() async throws {
        let store = try await seededStore()
        #expect(
            try await store.search("tomatoes report", gateway: nil, limit: 10).map(\.messageId).sorted() == [
                "row-a2", "row-w1",
            ])
        #expect(try await store.search("quart", gateway: nil, limit: 10).map(\.messageId) == ["row-w1"])
        // A finished word (trailing space) is not a prefix.
        #expect(try await store.search("quart ", gateway: nil, limit: 10).isEmpty)
    }

    @Test func accentsCaseAndStemsAreFolded() async throws {
        let store = try await seededStore()
        #expect(try await store.search("cafe zurich", gateway: nil, limit: 10).map(\.messageId) == ["row-b2"])
        #expect(try await store.search("CAFÉ", gateway: nil, limit: 10).map(\.messageId) == ["row-b2"])
        #expect(try await store.search("planting ", gateway: nil, limit: 10).map(\.messageId) == ["row-a2"])
    }

    @Test(arguments: [
        "\"", "\"\"", "*", "AND", "OR", "NOT", "tomatoes AND", "-", "-tomatoes", "(", ")", "(tomatoes", "NEAR(a b)",
        "col:tomatoes", "text:tomatoes", "^tomatoes", "🦞", "🦞 tomatoes", "'; DROP TABLE messages; --", "a\"b",
        "\\", "{text}: x", "+", "tomatoes*", "\u{0301}", "\0",
    ])
    func oddQueriesNeverThrow(query: String) async throws {
        let store = try await seededStore()
        _ = try await store.search(query, gateway: nil, limit: 10)
        #expect(try await store.search("tomatoes", gateway: nil, limit: 10).count == 4)
    }

    @Test func operatorsAreSearchedAsWords() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        try await store.record(
            [stored("x", text: "this AND that"), stored("y", text: "this or that")], gateway: "g", sessionKey: "s")
        #expect(try await store.search("and", gateway: nil, limit: 10).map(\.messageId) == ["row-x"])
        #expect(try await store.search("OR", gateway: nil, limit: 10).map(\.messageId) == ["row-y"])
    }

    @Test func editedAndDroppedMessagesLeaveTheIndex() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init(maxSessionsPerGateway: 1))
        try await store.record([stored("a", text: "original wording")], gateway: "g", sessionKey: "one")
        try await store.record([stored("a", text: "revised wording")], gateway: "g", sessionKey: "one")
        #expect(try await store.search("original", gateway: nil, limit: 10).isEmpty)
        #expect(try await store.search("revised", gateway: nil, limit: 10).count == 1)
        try await store.record([stored("b", text: "newer session")], gateway: "g", sessionKey: "two")
        #expect(try await store.search("wording", gateway: nil, limit: 10).isEmpty)
    }

    @Test(arguments: [
        ("hello", #""hello"*"#), ("hello world", #""hello" "world"*"#), ("hello world ", #""hello" "world""#),
        ("\"quoted\" (x)", #""quoted" "x"*"#), ("don't", #""don" "t"*"#), ("a-b", #""a" "b"*"#),
        ("café", #""café"*"#), ("🦞", nil), ("", nil), ("*?!", nil),
    ])
    func queriesBecomeQuotedWords(text: String, expression: String?) {
        #expect(SearchQuery(text).matchExpression == expression)
    }
}

/// Matches come out as marked parts: brackets in a message are text, not markers.
@Suite("SQLite store: search hits as parts")
struct SearchHitPartsTests {
    @Test func bracketsInTheMessageAreNotTakenForMatches() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        try await store.record(
            [stored("a", text: "array[0] holds the [first] gateway token")], gateway: "g", sessionKey: "s")
        let hit = try #require(try await store.search("gateway", gateway: "g", limit: 5).first)
        #expect(hit.parts.filter(\.isMatch).map(\.text) == ["gateway"])
        #expect(hit.parts.map(\.text).joined() == "array[0] holds the [first] gateway token")
        #expect(hit.snippet == "array[0] holds the [first] [gateway] token")
    }
}
