import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// A message sent while connected, with nothing ahead of it, is stored once, as attempted, before its
/// `chat.send` leaves (one fsynced write instead of two); every other message is stored as queued first.
/// Whatever the path, no `chat.send` leaves before the store says the gateway may have the message.
@MainActor
@Suite("Outbox: the first write of a message")
struct OutboxFirstWriteTests {
    /// A gateway and a chat on it, connected and loaded, that keeps its outbox in `store`; both end after
    /// `body`.
    private func withChat(
        _ body: (TestGateway, ObservedStore, ChatSession) async throws -> Void
    ) async throws {
        let gateway = try await TestGateway.start(GatewayFlavor.v4WithMessage.configuration())
        defer { Task { await gateway.stop() } }
        let store = ObservedStore()
        let connection = try ChatHarness.connection(to: gateway)
        let chat = ChatSession(client: ChatClient(connection: connection), store: store, gatewayID: "home")
        await chat.start()
        let ready = await eventually {
            chat.connectionState.isConnected && !chat.transcript.historyRequestOutstanding
                && chat.transcript.pendingHistoryRefresh == nil
        }
        #expect(ready, "the chat did not connect and load")
        try await body(gateway, store, chat)
        await chat.stop()
    }

    @Test func aMessageSentIntoAnIdleOutboxIsStoredOnceAsAttemptedBeforeItLeaves() async throws {
        try await withChat { gateway, store, chat in
            await store.holdOutboxWrites(true)
            // Not awaited yet: `send` returns when its flush does, and its first write is held.
            async let sent = chat.send("hello")
            #expect(await eventually { await store.outboxWritesHeld == 1 })
            // Held in the store: the message must not be on the wire yet.
            try await Task.sleep(for: .milliseconds(100))
            #expect(
                await gateway.requestCount(method: "chat.send") == 0, "chat.send left before its attempt was stored")
            let held = await store.outboxWrites
            #expect(held.count == 1 && held[0].hasSuffix(" sending 1"), "the first write is not the attempt: \(held)")

            await store.holdOutboxWrites(false)
            let id = await sent
            #expect(await gateway.requestCount(method: "chat.send") == 1)
            let writes = await store.outboxWrites
            #expect(writes.first == "enqueue \(id) sending 1")
            #expect(!writes.contains("update \(id) sending 1"), "the attempt was written twice: \(writes)")
        }
    }

    @Test func aMessageSentBehindAnotherIsStoredQueuedFirstAndAttemptedBeforeItLeaves() async throws {
        try await withChat { gateway, store, chat in
            // The first message's attempt is held in the store, so its flush is still running when the
            // second one is sent.
            await store.holdOutboxWrites(true)
            async let first = chat.send("first")
            #expect(await eventually { await store.outboxWritesHeld == 1 })
            async let second = chat.send("second")
            #expect(await eventually { await store.outboxWritesHeld == 2 })
            await store.holdOutboxWrites(false)
            let (firstID, secondID) = await (first, second)
            #expect(await eventually { await gateway.requestCount(method: "chat.send") == 2 })
            #expect(await eventually { await store.outboxWrites.contains("update \(secondID) sending 1") })
            let writes = await store.outboxWrites
            #expect(writes.prefix(2) == ["enqueue \(firstID) sending 1", "enqueue \(secondID) queued 0"])
        }
    }

    /// `submit` and `queue` return before their delivery starts: what is sent meanwhile must not be
    /// stored ahead of their message, or a later launch would deliver the two out of order.
    @Test func messagesSubmittedOneAfterAnotherAreStoredInTheirOrder() async throws {
        try await withChat { gateway, store, chat in
            let first = try await chat.submit("first")
            let second = await chat.queue("second")
            let third = await chat.send("third")
            // Each first write is an `enqueue`, which takes the message's place in the stored order.
            let enqueued = await store.outboxWrites.filter { $0.hasPrefix("enqueue ") }
            #expect(enqueued.map { $0.split(separator: " ")[1] } == [first, second, third].map { Substring($0) })
            #expect(Array(enqueued.prefix(2)) == ["enqueue \(first) queued 0", "enqueue \(second) queued 0"])
            #expect(await eventually { await gateway.requestCount(method: "chat.send") == 3 })
        }
    }

    /// The safety net behind the one write: a pass that did not attempt a message left to its attempt
    /// stores it as it is.
    @Test func aMessageLeftToAnAttemptThatDidNotComeIsStoredAsQueued() async throws {
        try await withChat { gateway, store, chat in
            let message = OutboxMessage(
                id: "left", gateway: "home", sessionKey: "main", text: "hello", createdAtMs: chat.now())
            _ = chat.outboxQueue.enqueue(message)
            chat.outboxUnstored.insert("left")
            let claimed = chat.flushSchedule.request()
            #expect(claimed)
            chat.connectionState = .disconnected(.connectionLost)
            await chat.runFlush()
            #expect(await store.outboxWrites == ["enqueue left queued 0"])
            #expect(await store.outbox(gateway: "home").map(\.id) == ["left"], "the message is not in the store")
            #expect(chat.outboxUnstored.isEmpty)
            #expect(chat.flushSchedule.state == .idle)
            #expect(await gateway.requestCount(method: "chat.send") == 0)
        }
    }
}
