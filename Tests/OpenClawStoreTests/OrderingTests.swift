import OpenClawChat
import OpenClawProtocol
import OpenClawStore
import Testing

/// Ordering cases that stress the SQLite store's REAL sort key beyond what the conformance suite does.
@Suite("SQLite store ordering")
struct OrderingTests {
    @Test func repeatedInsertsIntoTheSameGapRenumberWithoutLosingOrder() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        let reference = InMemoryChatStore()
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        await reference.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        // Each new message goes right after "a", before the previous one: the gap halves every time,
        // so a double runs out of room after ~50 and the session must be renumbered.
        for index in 0..<200 {
            let messages = page("a", "n\(index)")
            try await store.record(messages, gateway: "gw", sessionKey: "main")
            await reference.record(messages, gateway: "gw", sessionKey: "main")
        }
        let keys = try await store.keys()
        #expect(keys.count == 202)
        #expect(keys == (try await reference.keys()))
        #expect(keys.prefix(3) == ["a", "n199", "n198"])
        #expect(keys.last == "b")
    }

    @Test func longRunsOfOlderMessagesAreSpreadAcrossTheGap() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        try await store.record(page("first", "last"), gateway: "gw", sessionKey: "main")
        // 2,000 messages between two stored ones in one page, then 2,000 older ones before them all.
        let middle = (0..<2000).map { "mid\($0)" }
        try await store.record(
            (["first"] + middle + ["last"]).map { stored($0) }, gateway: "gw", sessionKey: "main")
        let older = (0..<2000).map { "old\($0)" }
        try await store.record((older + ["first"]).map { stored($0) }, gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == older + ["first"] + middle + ["last"])
    }

    @Test func messagesRoundTripWhole() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        var reply = ChatMessage(
            role: .assistant,
            content: [
                .thinking("plan"), .toolCall(id: "t1", name: "exec", arguments: ["cmd": "ls -la", "n": 2]),
                .text("done"), .other(type: "canvas", raw: ["type": "canvas", "x": [1, 2]]),
            ],
            timestampMs: 1_737_264_000_000, entry: ChatTranscriptEntryInfo(id: "e1", seq: 3))
        reply.usage = ChatUsage(inputTokens: 10, outputTokens: 2, costTotal: 0.5)
        reply.stopReason = "stop"
        let message = StoredMessage(
            id: "row-1", historyKey: "e1", runId: "run-9", message: reply,
            toolTimings: [
                "t1": StoredToolTiming(startedAtMs: 100, endedAtMs: 250, isError: false),
                "t2": StoredToolTiming(startedAtMs: 300),
            ])
        try await store.record([message], gateway: "gw", sessionKey: "main")
        #expect(try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: 1) == [message])
    }
}
