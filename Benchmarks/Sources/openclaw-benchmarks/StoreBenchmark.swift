import OpenClawChat
import OpenClawProtocol
import OpenClawStore

/// Scenario 5: the chat store — appending, a cold open showing the latest 200 rows, full-text search.
///
/// Written against the `ChatStore` protocol: ``StoreUnderTest`` says which implementation runs.
enum StoreBenchmark {
    static let gateway = "ws://127.0.0.1:18789"

    @MainActor
    static func run(_ report: Report, settings: Settings, store kind: StoreUnderTest) async throws {
        let directory = try TemporaryDirectory(prefix: "openclaw-bench-store")
        defer { directory.remove() }
        let sessionPath = directory.path + "/session.sqlite"
        try await append(report, settings: settings, kind: kind, path: sessionPath)
        try await coldOpen(report, settings: settings, kind: kind, path: sessionPath)
        try await search(report, settings: settings, kind: kind, path: directory.path + "/search.sqlite")
    }

    /// A 10,000-message session recorded in pages of 100 new messages; then the refresh after every run:
    /// the latest 200 recorded again, 4 of them new.
    @MainActor
    private static func append(_ report: Report, settings: Settings, kind: StoreUnderTest, path: String) async throws {
        let count = settings.storeAppendMessages
        let messages = storedMessages(count: count + 4 * settings.storeRefreshes, session: 0)
        let store = try await kind.open(path)
        let clock = ContinuousClock()
        let start = clock.now
        for first in stride(from: 0, to: count, by: 100) {
            try await store.record(
                Array(messages[first..<min(count, first + 100)]), gateway: gateway, sessionKey: "main")
        }
        let elapsed = clock.now - start
        report.add(
            "5", "append \(Format.grouped(count)) messages (pages of 100)", elapsed.milliseconds, "ms",
            note: "\(kind.name); \(Format.number(elapsed.seconds * 1e6 / Double(count))) µs per message")

        var samples = Samples()
        for index in 0..<settings.storeRefreshes {
            let end = count + 4 * (index + 1)
            let page = Array(messages[(end - 200)..<end])
            let pageStart = clock.now
            try await store.record(page, gateway: gateway, sessionKey: "main")
            samples.append(clock.now - pageStart)
        }
        report.addLatency("5", "record a 200-message page, 4 new", samples, note: kind.name)
    }

    /// A new store on the file (the last one is gone), the latest 200 messages, and the transcript
    /// painted from them: what a launch shows before the gateway answers.
    @MainActor
    private static func coldOpen(_ report: Report, settings: Settings, kind: StoreUnderTest, path: String) async throws
    {
        let clock = ContinuousClock()
        var total = Samples()
        var opens = Samples()
        var fetches = Samples()
        for _ in 0..<settings.storeColdOpens {
            let start = clock.now
            let store = try await kind.open(path)
            let opened = clock.now
            let latest = try await store.latestMessages(gateway: gateway, sessionKey: "main", limit: 200)
            let fetched = clock.now
            var transcript = Transcript(sessionKey: "main")
            transcript.apply(.restored(latest))
            total.append(clock.now - start)
            opens.append(opened - start)
            fetches.append(fetched - opened)
            guard transcript.entries.count == 200 else {
                throw BenchmarkError.wrongResult("cold open showed \(transcript.entries.count) rows")
            }
        }
        let painting = total.median - opens.median - fetches.median
        report.addLatency(
            "5", "cold open → latest 200 shown", total, goal: .atMost(10, "ms"),
            note: "\(kind.name), \(Format.grouped(settings.storeAppendMessages))-message session: open "
                + "\(Format.number(opens.median.milliseconds)) ms, fetch \(Format.number(fetches.median.milliseconds)) "
                + "ms, paint \(Format.number(painting.milliseconds)) ms")
    }

    /// 100,000 messages in 100 sessions, then queries on a new store: a rare word, two words, and a
    /// phrase a quarter of all messages contain.
    @MainActor
    private static func search(_ report: Report, settings: Settings, kind: StoreUnderTest, path: String) async throws {
        let clock = ContinuousClock()
        let fillStart = clock.now
        try await fillSearchStore(try await kind.open(path), messages: settings.searchMessages)
        let fill = clock.now - fillStart
        let store = try await kind.open(path)
        let queries = [
            ("a rare word", Fixtures.topic(421)),
            ("two words", Fixtures.topic(77) + " refactor"),
            ("a phrase in every 4th message", "cache invalidation"),
        ]
        for (index, (description, query)) in queries.enumerated() {
            let hits = try await store.search(query, gateway: gateway, limit: 50)
            guard !hits.isEmpty else { throw BenchmarkError.wrongResult("\"\(query)\" found nothing") }
            let samples = try await measure(iterations: settings.searchRounds, warmup: 1) {
                _ = try await store.search(query, gateway: gateway, limit: 50)
            }
            report.addLatency(
                "5", "full-text query over \(Format.grouped(settings.searchMessages)) messages, \(description)",
                samples, goal: .atMost(20, "ms"),
                note: "\(kind.name); \"\(query)\", \(hits.count) hits shown (limit 50)"
                    + (index == 0 ? "; store filled in \(Format.number(fill.seconds)) s" : ""))
        }
    }

    /// `messages` messages in 100 sessions of one gateway (``gateway``), recorded in pages of 500.
    @MainActor
    static func fillSearchStore(_ store: any ChatStore, messages: Int) async throws {
        let perSession = messages / 100
        for session in 0..<100 {
            let messages = storedMessages(count: perSession, session: session + 1, firstTurn: session * perSession / 4)
            for first in stride(from: 0, to: messages.count, by: 500) {
                try await store.record(
                    Array(messages[first..<min(messages.count, first + 500)]), gateway: gateway,
                    sessionKey: "session-\(session)")
            }
        }
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

/// Which `ChatStore` the store scenario measures, and how it is opened on a file: the scenario itself
/// only uses the `ChatStore` protocol.
struct StoreUnderTest {
    var name: String
    /// Opens the store on a file, creating it if needed: a new store each call.
    var open: @MainActor (String) async throws -> any ChatStore
}

extension StoreUnderTest {
    /// The apps' store: SQLite (WAL, FTS5) through the store's own layer, with its default limits (10,000 messages per
    /// session, 100 sessions per gateway). Each open makes new connections; nothing is cached but the
    /// operating system's page cache.
    @MainActor
    static func sqlite() -> StoreUnderTest {
        StoreUnderTest(
            name: "SQLiteChatStore",
            open: { path in try SQLiteChatStore(path: path, logger: Harness.quietLogger) }
        )
    }
}
