import OpenClawChat
import OpenClawProtocol

/// Scenario 5: the chat store — appending, a cold open showing the latest 200 rows, full-text search.
///
/// Written against the `ChatStore` protocol: ``StoreUnderTest`` says which implementation runs.
enum StoreBenchmark {
    static let gateway = "ws://127.0.0.1:18789"

    @MainActor
    static func run(_ report: Report, settings: Settings, store kind: StoreUnderTest) async throws {
        let label = kind.name
        let directory = try TemporaryDirectory(prefix: "openclaw-bench-store")
        defer { directory.remove() }

        // Append: a 10,000-message session recorded in pages of 100 new messages.
        let sessionPath = directory.path + "/append.sqlite"
        let session = storedMessages(count: settings.storeAppendMessages, session: 0)
        var store = try await kind.open(sessionPath)
        let clock = ContinuousClock()
        let appendStart = clock.now
        for start in stride(from: 0, to: session.count, by: 100) {
            try await store.record(
                Array(session[start..<min(session.count, start + 100)]), gateway: gateway, sessionKey: "main")
        }
        let append = clock.now - appendStart
        report.add(
            "5", "append \(Format.grouped(session.count)) messages (pages of 100)", append.milliseconds, "ms",
            note: "\(label); \(Format.number(append.seconds * 1e6 / Double(session.count))) µs per message")

        // The refresh after every run: the latest 200 recorded again, 4 of them new.
        let extra = storedMessages(count: settings.storeAppendMessages + 4 * settings.storeRefreshes, session: 0)
        var refreshes = Samples()
        for index in 0..<settings.storeRefreshes {
            let end = settings.storeAppendMessages + 4 * (index + 1)
            let page = Array(extra[(end - 200)..<end])
            let start = clock.now
            try await store.record(page, gateway: gateway, sessionKey: "main")
            refreshes.append(clock.now - start)
        }
        report.addLatency("5", "record a 200-message page, 4 new", refreshes, note: label)
        store = try await kind.open(directory.path + "/unused.sqlite")  // let the first store go

        // Cold open: a new store on the file, the latest 200, and the transcript painted from them.
        var coldOpens = Samples()
        for _ in 0..<settings.storeColdOpens {
            let start = clock.now
            let reopened = try await kind.reopen(sessionPath)
            let latest = try await reopened.latestMessages(gateway: gateway, sessionKey: "main", limit: 200)
            var transcript = Transcript(sessionKey: "main")
            transcript.apply(.restored(latest))
            coldOpens.append(clock.now - start)
            guard transcript.entries.count == 200 else {
                throw BenchmarkError.wrongResult("cold open showed \(transcript.entries.count) rows")
            }
        }
        report.addLatency(
            "5", "cold open → latest 200 shown", coldOpens, goal: .atMost(10, "ms"),
            note:
                "\(label), \(Format.grouped(settings.storeAppendMessages + 4 * settings.storeRefreshes))-message session"
                + (kind.reopensFromDisk ? "" : "; not from disk: this store cannot be reopened"))

        // Search: 100,000 messages in 100 sessions; one rare word, two words, a common word.
        let searchPath = directory.path + "/search.sqlite"
        let searchStore = try await kind.open(searchPath)
        let perSession = settings.searchMessages / 100
        let fillStart = clock.now
        for sessionIndex in 0..<100 {
            let messages = storedMessages(
                count: perSession, session: sessionIndex + 1, firstTurn: sessionIndex * perSession / 4)
            for start in stride(from: 0, to: messages.count, by: 500) {
                try await searchStore.record(
                    Array(messages[start..<min(messages.count, start + 500)]), gateway: gateway,
                    sessionKey: "session-\(sessionIndex)")
            }
        }
        let fill = clock.now - fillStart
        let queries = [Fixtures.topic(421), Fixtures.topic(77) + " refactor", "cache invalidation"]
        let searched = try await kind.reopen(searchPath)
        var hitCounts: [Int] = []
        var searches = Samples()
        for round in 0..<(settings.searchRounds + 1) {
            for query in queries {
                let start = clock.now
                let hits = try await searched.search(query, gateway: gateway, limit: 50)
                let elapsed = clock.now - start
                if round > 0 { searches.append(elapsed) } else { hitCounts.append(hits.count) }
            }
        }
        guard hitCounts.allSatisfy({ $0 > 0 }) else { throw BenchmarkError.wrongResult("searches found \(hitCounts)") }
        report.addLatency(
            "5", "full-text query over \(Format.grouped(settings.searchMessages)) messages (limit 50)", searches,
            goal: .atMost(20, "ms"),
            note: "\(label); queries \(queries.map { "\"\($0)\"" }.joined(separator: ", ")) → \(hitCounts) hits; "
                + "filled in \(Format.number(fill.seconds)) s")
        withExtendedLifetime(store) {}
    }

    /// `count` history messages of session `session` as the view model records them.
    static func storedMessages(count: Int, session: Int, firstTurn: Int = 0) -> [StoredMessage] {
        Fixtures.historyMessages(count: count, firstTurn: firstTurn).enumerated().compactMap { index, json in
            guard let message = ChatMessage(json: json) else { return nil }
            return StoredMessage(
                id: "s\(session)-m\(index)", historyKey: message.stableKey, runId: nil, message: message)
        }
    }
}

/// Which `ChatStore` the store scenario measures, and how it is opened on a file.
struct StoreUnderTest {
    var name: String
    /// Whether ``reopen`` reads the file again (a cold start), rather than returning the open store.
    var reopensFromDisk: Bool
    var open: @MainActor (String) async throws -> any ChatStore
    var reopen: @MainActor (String) async throws -> any ChatStore
}

extension StoreUnderTest {
    /// The in-memory store: no file, so a "cold open" is the same store.
    @MainActor
    static func inMemory() -> StoreUnderTest {
        var stores: [String: InMemoryChatStore] = [:]
        return StoreUnderTest(
            name: "InMemoryChatStore",
            reopensFromDisk: false,
            open: { path in
                let store = InMemoryChatStore()
                stores[path] = store
                return store
            },
            reopen: { path in
                guard let store = stores[path] else { throw BenchmarkError.setup("no store at \(path)") }
                return store
            }
        )
    }
}
