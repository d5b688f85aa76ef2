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
            // Not awaited yet: a sender that stores the message before its flush waits here for the store.
            async let submitted = chat.submit("hello")
            #expect(await eventually { await store.outboxWritesHeld == 1 })
            // Held in the store: the message must not be on the wire yet.
            try await Task.sleep(for: .milliseconds(100))
            #expect(
                await gateway.requestCount(method: "chat.send") == 0, "chat.send left before its attempt was stored")
            let held = await store.outboxWrites
            #expect(held.count == 1 && held[0].hasSuffix(" sending 1"), "the first write is not the attempt: \(held)")

            await store.holdOutboxWrites(false)
            let id = try await submitted
            #expect(await eventually { await gateway.requestCount(method: "chat.send") == 1 })
            await chat.finishDelivery()
            let writes = await store.outboxWrites
            #expect(writes.first == "enqueue \(id) sending 1")
            #expect(!writes.contains("update \(id) sending 1"), "the attempt was written twice: \(writes)")
        }
    }

    @Test func aMessageBehindAnotherIsStoredQueuedFirstAndAttemptedBeforeItLeaves() async throws {
        try await withChat { gateway, store, chat in
            // The first message's attempt is held in the store, so its flush is still running when the
            // second one is sent.
            await store.holdOutboxWrites(true)
            // Not awaited yet: a sender that stores the message before its flush waits here for the store.
            async let first = chat.submit("first")
            #expect(await eventually { await store.outboxWritesHeld == 1 })
            async let second = chat.submit("second")
            #expect(await eventually { await store.outboxWritesHeld == 2 })
            await store.holdOutboxWrites(false)
            let (firstID, secondID) = try await (first, second)
            #expect(await eventually { await gateway.requestCount(method: "chat.send") == 2 })
            await chat.finishDelivery()
            let writes = await store.outboxWrites
            #expect(writes.prefix(2) == ["enqueue \(firstID) sending 1", "enqueue \(secondID) queued 0"])
            #expect(writes.contains("update \(secondID) sending 1"), "the second message's attempt was not stored")
        }
    }

    @Test func aMessageWhoseConnectionWentBeforeItsAttemptIsStoredAsQueued() async throws {
        try await withChat { gateway, store, chat in
            let id = try await chat.submit("hello")
            // In the same turn, before the flush that was to attempt it runs: the chat sees the socket gone.
            chat.connectionState = .disconnected(.connectionLost)
            await chat.finishDelivery()
            #expect(await store.outboxWrites == ["enqueue \(id) queued 0"])
            #expect(await store.outbox(gateway: "home").map(\.id) == [id], "the message is not in the store")
            #expect(await gateway.requestCount(method: "chat.send") == 0)
        }
    }
}
