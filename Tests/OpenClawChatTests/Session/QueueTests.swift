import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// `queue(_:)`: a message put in the outbox without an attempt, for a sender that connects meanwhile.
@MainActor
@Suite("Chat session: queued while connecting")
struct QueueTests {
    /// Queued before the first connection: stored at once, not sent, then sent once by the connection's
    /// first flush.
    @Test func aMessageQueuedBeforeConnectingLeavesWithTheFirstConnection() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration())
        let connection = try ChatHarness.connection(to: gateway)
        let store = InMemoryChatStore()
        let session = ChatSession(client: ChatClient(connection: connection), sessionKey: "main", store: store)
        await session.loadStoredState()
        let id = await session.queue("before hello-ok")
        #expect(await store.outbox(gateway: session.gatewayID).map(\.id) == [id], "on disk before connecting")
        #expect(session.outbox.first?.attempts == 0)
        #expect(await gateway.requestCount(method: "chat.send") == 0)

        await session.start(waitingForSessionLoad: false)
        await session.finishDelivery()
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["before hello-ok"])
        #expect(session.outbox.first(where: { $0.id == id })?.state != .queued)
        await session.stop()
        await gateway.stop()
    }

    /// Queued on a connection that is up: no later connection is needed, it leaves at once.
    @Test func aMessageQueuedWhileConnectedLeavesAtOnce() async throws {
        try await ChatHarness.withViewModel(.init()) { fixture in
            await fixture.viewModel.queue("while connected")
            await fixture.viewModel.finishDelivery()
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["while connected"])
        }
    }
}
