import OpenClawChat
import OpenClawProtocol
import OpenClawStore
import Testing

/// The ``ChatStore`` contract, run against every implementation: the in-memory store defines the
/// semantics, the SQLite store must match it.
@Suite("ChatStore conformance")
struct StoreConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func firstPageIsStoredInPageOrder(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(page("a", "b", "c"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["a", "b", "c"])
        #expect(
            try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: 2).map(\.historyKey) == ["b", "c"])
        #expect(try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: 0).isEmpty)
        #expect(try await store.latestMessages(gateway: "gw", sessionKey: "other", limit: 5).isEmpty)
        #expect(try await store.latestMessages(gateway: "other", sessionKey: "main", limit: 5).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func appendedPageGoesAfter(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        try await store.record(page("b", "c", "d"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["a", "b", "c", "d"])
    }

    @Test(arguments: StoreKind.allCases)
    func overlappingPageUpdatesInPlaceAndFillsGaps(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(page("a", "c", "e"), gateway: "gw", sessionKey: "main")
        var update = stored("c", text: "edited c")
        update.runId = "run-1"
        update.toolTimings = ["t1": StoredToolTiming(startedAtMs: 1, endedAtMs: 5, isError: false)]
        try await store.record([stored("b"), update, stored("d"), stored("e")], gateway: "gw", sessionKey: "main")
        let messages = try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: 10)
        #expect(messages.map(\.historyKey) == ["a", "b", "c", "d", "e"])
        #expect(messages[2] == update)
    }

    @Test(arguments: StoreKind.allCases)
    func largerPageWithOlderMessagesPutsThemBefore(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(page("m5", "m6"), gateway: "gw", sessionKey: "main")
        try await store.record(page("m1", "m2", "m3", "m4", "m5", "m6", "m7"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["m1", "m2", "m3", "m4", "m5", "m6", "m7"])
        // Older still, ending at the first stored message.
        try await store.record(page("m0", "m1"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7"])
    }

    @Test(arguments: StoreKind.allCases)
    func pageWithNothingKnownGoesLast(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        try await store.record(page("x", "y"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["a", "b", "x", "y"])
    }

    @Test(arguments: StoreKind.allCases)
    func newMessagesBetweenStoredOnesFollowTheirPagePredecessor(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(page("a", "b", "c"), gateway: "gw", sessionKey: "main")
        // "n1" and "n2" precede "a" (the first stored message of the page); "n3" follows "b" directly.
        try await store.record(page("n1", "n2", "a", "b", "n3"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["n1", "n2", "a", "b", "n3", "c"])
    }

    @Test(arguments: StoreKind.allCases)
    func sessionsAndGatewaysAreKeptApart(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        try await store.record(page("b", "a"), gateway: "gw", sessionKey: "side")
        try await store.record(page("z"), gateway: "gw2", sessionKey: "main")
        #expect(try await store.keys() == ["a", "b"])
        #expect(try await store.keys(sessionKey: "side") == ["b", "a"])
        #expect(try await store.keys(gateway: "gw2") == ["z"])
    }

    @Test(arguments: StoreKind.allCases)
    func outboxIsIdempotentOrderedAndUpdatable(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        let first = OutboxMessage(id: "k1", gateway: "gw", sessionKey: "main", text: "one", createdAtMs: 30)
        let second = OutboxMessage(
            id: "k2", gateway: "gw", sessionKey: "main", text: "two", thinking: "high", createdAtMs: 10)
        let elsewhere = OutboxMessage(id: "k1", gateway: "gw2", sessionKey: "main", text: "other", createdAtMs: 1)
        try await store.enqueue(first)
        try await store.enqueue(second)
        try await store.enqueue(elsewhere)
        var duplicate = first
        duplicate.text = "changed"
        try await store.enqueue(duplicate)
        #expect(try await store.outbox(gateway: "gw") == [first, second])

        var failed = second
        failed.state = .failed(reason: "INVALID_REQUEST: too long")
        failed.attempts = 2
        failed.lastAttemptAtMs = 99
        try await store.update(failed)
        var sending = first
        sending.state = .sending
        try await store.update(sending)
        #expect(try await store.outbox(gateway: "gw") == [sending, failed])

        try await store.update(
            OutboxMessage(id: "absent", gateway: "gw", sessionKey: "main", text: "x", createdAtMs: 0))
        try await store.removeFromOutbox(id: "k1", gateway: "gw")
        try await store.removeFromOutbox(id: "absent", gateway: "gw")
        #expect(try await store.outbox(gateway: "gw") == [failed])
        #expect(try await store.outbox(gateway: "gw2") == [elsewhere])
    }

    @Test(arguments: StoreKind.allCases)
    func everyOutboxStateSurvives(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        let states: [OutboxState] = [
            .queued, .sending, .ambiguous, .accepted, .failed(reason: "expired"), .failed(reason: ""),
        ]
        for (index, state) in states.enumerated() {
            try await store.enqueue(
                OutboxMessage(
                    id: "k\(index)", gateway: "gw", sessionKey: "s", text: "t", createdAtMs: index, state: state))
        }
        #expect(try await store.outbox(gateway: "gw").map(\.state) == states)
    }

    @Test(arguments: StoreKind.allCases)
    func searchFindsEveryWordAndNothingForEmptyQueries(kind: StoreKind) async throws {
        let (store, cleanup) = try kind.make()
        defer { cleanup() }
        try await store.record(
            [stored("a", text: "The lobster recipe needs butter"), stored("b", text: "butter only")],
            gateway: "gw", sessionKey: "main")
        let hits = try await store.search("lobster butter", gateway: "gw", limit: 10)
        #expect(hits.map(\.messageId) == ["row-a"])
        #expect(try await store.search("", gateway: nil, limit: 10).isEmpty)
        #expect(try await store.search("  ", gateway: "gw", limit: 10).isEmpty)
        #expect(try await store.search("butter", gateway: "gw", limit: 0).isEmpty)
    }

    /// Random pages against both stores: the SQLite order must always be the in-memory order.
    @Test(arguments: [StoreKind.sqliteInMemory])
    func randomPagesOrderLikeTheInMemoryStore(kind: StoreKind) async throws {
        var generator = SplitMix(seed: 0x5EED)
        for _ in 0..<20 {
            let reference = InMemoryChatStore()
            let (store, cleanup) = try kind.make()
            defer { cleanup() }
            for _ in 0..<12 {
                let count = Int(generator.next() % 8)
                let keys = (0..<count).map { _ in "k\(generator.next() % 30)" }
                let messages = keys.map { stored($0) }
                await reference.record(messages, gateway: "gw", sessionKey: "main")
                try await store.record(messages, gateway: "gw", sessionKey: "main")
            }
            #expect(try await store.keys() == reference.keys())
        }
    }
}

/// A small deterministic generator, so a failing random case reproduces.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
