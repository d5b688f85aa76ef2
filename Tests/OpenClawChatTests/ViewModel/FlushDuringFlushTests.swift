import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// A message queued while a flush is busy is delivered by that flush, whatever part of it was running:
/// the request used to be dropped when it came while other sessions' messages were being confirmed from
/// history (issue 38, point 1: a `send` to B after an unconfirmed `send` to A never wrote `chat.send`).
@MainActor
@Suite("View model: a message queued during a flush")
struct FlushDuringFlushTests {
    /// An accepted message of another session is confirmed from that session's history at the end of
    /// the first flush; the gateway does not answer `chat.history`, so that confirmation is held (1 s,
    /// the history timeout here) while a new message is queued. That flush must still deliver it.
    @Test func aMessageQueuedWhileAnotherSessionIsConfirmedIsDeliveredByTheSameFlush() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration())
        let connection = try ChatHarness.connection(to: gateway)
        let store = InMemoryChatStore()
        let gatewayID = connection.configuration.url.storageIdentity
        await store.enqueue(
            OutboxMessage(
                id: "earlier-run", gateway: gatewayID, sessionKey: "other", text: "sent before",
                createdAtMs: Int(UnixTime.nowMs()), state: .accepted, attempts: 1))
        var timeouts = ChatTimeouts()
        timeouts.history = .seconds(1)
        // No retry timer to paper over a lost request within the test.
        let viewModel = ChatSession(
            client: ChatClient(connection: connection, timeouts: timeouts), sessionKey: "main", store: store,
            outboxPolicy: OutboxPolicy(retryInterval: .seconds(3600)))
        await gateway.setFaults(FaultPlan(ignoreRequests: ["chat.history"]))

        await viewModel.start(waitingForSessionLoad: false)
        let load = try #require(viewModel.sessionLoad?.task)
        // Both pages asked for: this session's, and the other session's (the flush's last step).
        let confirming = await eventually { await gateway.requestCount(method: "chat.history") >= 2 }
        #expect(confirming)
        let id = await viewModel.send("queued during the flush")

        // The flush that was running ends once its history requests time out; it must have sent the message.
        await load.value
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["queued during the flush"])
        #expect(viewModel.outbox.first { $0.id == id }?.state == .accepted)
        await viewModel.stop()
        await gateway.stop()
    }
}
