import OpenClawChat
import OpenClawProtocol
import OpenClawStore
import Testing

@Suite("SQLite store caps")
struct CapTests {
    @Test func oldestMessagesBeyondTheSessionCapAreDropped() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init(maxMessagesPerSession: 3))
        try await store.record(page("a", "b", "c", "d", "e"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["c", "d", "e"])
        try await store.record(page("e", "f"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["d", "e", "f"])
        // An older page is dropped again at once: the cap keeps the newest.
        try await store.record(page("a", "b", "d"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["d", "e", "f"])
        #expect(try await store.search("message", gateway: nil, limit: 10).count == 3)
    }

    @Test func leastRecentlyRecordedSessionsBeyondTheGatewayCapAreDropped() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteChatStore(path: folder.file("chat.sqlite"), limits: .init(maxSessionsPerGateway: 2))
        let queued = OutboxMessage(id: "q", gateway: "gw", sessionKey: "s1", text: "unsent", createdAtMs: 1)
        try await store.enqueue(queued)
        try await store.record(page("a"), gateway: "gw", sessionKey: "s1")
        try await store.record(page("b"), gateway: "gw", sessionKey: "s2")
        try await store.record(page("a2"), gateway: "gw", sessionKey: "s1")  // s1 is recent again
        try await store.record(page("c"), gateway: "gw", sessionKey: "s3")  // s2 is the oldest now
        try await store.record(page("z"), gateway: "other", sessionKey: "s9")  // another gateway's cap
        #expect(try await store.keys(sessionKey: "s1") == ["a", "a2"])
        #expect(try await store.keys(sessionKey: "s2") == [])
        #expect(try await store.keys(sessionKey: "s3") == ["c"])
        #expect(try await store.keys(gateway: "other", sessionKey: "s9") == ["z"])
        #expect(try await store.search("b", gateway: nil, limit: 10).isEmpty)
        // The outbox is never capped, even for a dropped session's messages.
        #expect(try await store.outbox(gateway: "gw") == [queued])
        try await store.record(page("d"), gateway: "gw", sessionKey: "s4")
        #expect(try await store.keys(sessionKey: "s1") == [])
        #expect(try await store.outbox(gateway: "gw") == [queued])
    }

    @Test func manyMessagesKeepTheNewestUnderTheDefaultCaps() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        let keys = (0..<10_050).map { "m\($0)" }
        try await store.record(keys.map { stored($0) }, gateway: "gw", sessionKey: "main")
        let kept = try await store.keys()
        #expect(kept.count == 10_000)
        #expect(kept.first == "m50")
        #expect(kept.last == "m10049")
    }
}
