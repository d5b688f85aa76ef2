import OpenClawChat
import OpenClawProtocol
import OpenClawStore
import Testing

/// A page recorded again skips what the rows already hold (the store remembers what it committed);
/// these are the cases where that memory could be wrong, each of which must still leave the rows as
/// the last page said.
@Suite("SQLite store: pages recorded again")
struct RerecordedPageTests {
    func texts(_ store: SQLiteChatStore, sessionKey: String = "main") async throws -> [String] {
        try await store.latestMessages(gateway: "gw", sessionKey: sessionKey, limit: .max).map { $0.message.text }
    }

    @Test func aMessageChangedAndChangedBackIsStoredAsItIsNow() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        for text in ["first", "edited", "first", "first"] {
            try await store.record([stored("a"), stored("b", text: text)], gateway: "gw", sessionKey: "main")
            #expect(try await texts(store) == ["message a", text])
        }
    }

    @Test func aKeyTwiceInOnePageKeepsItsLastMessage() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        let twice = [stored("a", text: "older"), stored("a", text: "newer")]
        for _ in 0..<3 {
            try await store.record(twice, gateway: "gw", sessionKey: "main")
            #expect(try await texts(store) == ["newer"])
        }
    }

    @Test func rowsRemovedSinceTheyWereRecordedAreWrittenAgain() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init(maxSessionsPerGateway: 1))
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "one")
        try await store.record(page("c"), gateway: "gw", sessionKey: "two")
        #expect(try await store.keys(sessionKey: "one") == [])
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "one")
        #expect(try await store.keys(sessionKey: "one") == ["a", "b"])
    }

    @Test func moreSessionsThanItRemembersAreEachKeptWhole() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        let sessions = (0..<7).map { "s\($0)" }
        for round in 0..<3 {
            for key in sessions {
                try await store.record(
                    [stored("\(key)-a"), stored("\(key)-b", text: "round \(round)")], gateway: "gw", sessionKey: key)
            }
        }
        for key in sessions {
            #expect(try await texts(store, sessionKey: key) == ["message \(key)-a", "round 2"])
        }
    }

    /// The store remembers by row, not by content alone: the same message recorded into another
    /// session or gateway is written there too.
    @Test func theSameMessagesInAnotherSessionOrGatewayAreWrittenThere() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "other")
        try await store.record(page("a", "b"), gateway: "gw2", sessionKey: "main")
        #expect(try await store.keys(sessionKey: "other") == ["a", "b"])
        #expect(try await store.keys(gateway: "gw2") == ["a", "b"])
    }
}

/// Another process with the same file can remove a session's rows and record them again with other
/// text; the row ids change, so this store does not trust what it remembers of the old rows.
@Suite("SQLite store: rows another process replaced")
struct ReplacedRowsTests {
    @Test func rowsAnotherStoreReplacedAreWrittenAgain() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let mine = try SQLiteChatStore(path: path)
        let theirs = try SQLiteChatStore(path: path, limits: .init(maxSessionsPerGateway: 1))
        try await mine.record([stored("a", text: "mine")], gateway: "gw", sessionKey: "main")
        try await theirs.record(page("z"), gateway: "gw", sessionKey: "elsewhere")
        try await theirs.record([stored("a", text: "theirs")], gateway: "gw", sessionKey: "main")
        try await mine.record([stored("a", text: "mine")], gateway: "gw", sessionKey: "main")
        let texts = try await theirs.latestMessages(gateway: "gw", sessionKey: "main", limit: 10).map(\.message.text)
        #expect(texts == ["mine"])
    }
}
