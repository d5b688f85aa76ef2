import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A send whose answer was lost is retried with the same idempotency key, so the gateway never runs
/// the message twice, and the transcript ends with one user row.
@MainActor
@Suite("View model: retry with the same idempotency key")
struct RetryTests {
    /// The gateway stores the message and starts the run, then drops the socket before the ack: the
    /// send fails although the message landed. A retry on the new socket must not start a second run.
    @Test(arguments: GatewayFlavor.all)
    func retryingASendWhoseAnswerWasLostStartsNoSecondRun(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await fixture.gateway.setFaults(FaultPlan(dropConnectionOnChatSend: .beforeAck))
            let id = await viewModel.send("did this land?")
            guard case .failed = viewModel.transcript.entry(id: id)?.status else {
                Issue.record("the send should have failed, is \(String(describing: viewModel.messages.first?.status))")
                return
            }
            #expect(viewModel.alerts.count == 1)
            #expect(await eventually { !viewModel.connectionState.isConnected })

            // Reconnect underneath a stopped view model, so the retry goes out before any history fetch
            // could confirm the message.
            await viewModel.stop()
            try await fixture.connection.connect()
            await viewModel.retry(messageID: id)
            #expect(viewModel.transcript.entry(id: id)?.status == .sent)

            await viewModel.start()
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.first?.id == id)
            #expect(await fixture.gateway.runCount() == 1)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["did this land?"])
        }
    }

    /// The same, with the view model listening: reconnecting by `start()` may reconcile before or after
    /// the retry; either way there is one run and one user row.
    @Test(arguments: GatewayFlavor.versions)
    func retryingAfterRestartingLeavesOneUserMessage(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await fixture.gateway.setFaults(FaultPlan(dropConnectionOnChatSend: .beforeAck))
            let id = await viewModel.send("once only")
            #expect(await eventually { !viewModel.connectionState.isConnected })
            await viewModel.start()
            await viewModel.retry(messageID: id)
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(viewModel.messages.first?.id == id)
            #expect(await fixture.gateway.runCount() == 1)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["once only"])
        }
    }

    /// The socket drops right after the ack: the send succeeded, the run's events are lost; after a
    /// reconnect history brings the reply, and nothing is sent twice.
    @Test(arguments: GatewayFlavor.versions)
    func aDropAfterTheAckIsRecoveredByHistory(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await fixture.gateway.setFaults(FaultPlan(dropConnectionOnChatSend: .afterAck))
            let id = await viewModel.send("ack then drop")
            #expect(await eventually { !viewModel.connectionState.isConnected })
            #expect(viewModel.transcript.entry(id: id)?.status == .sent)
            await viewModel.retry(messageID: id)
            await viewModel.start()
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.first?.id == id)
            #expect(await fixture.gateway.runCount() == 1)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["ack then drop"])
        }
    }
}
