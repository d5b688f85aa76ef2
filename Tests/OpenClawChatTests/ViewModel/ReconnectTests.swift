import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// After a lost connection the view model reconnects and reconciles with history: no duplicates,
/// nothing missing, the ids the user saw kept.
@MainActor
@Suite("View model: reconnect")
struct ReconnectTests {
    @Test(arguments: GatewayFlavor.all)
    func reconnectingAfterAnExchangeReconcilesWithoutDuplicates(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            let id = await viewModel.send("before the drop")
            let before = await fixture.settled()
            #expect(before.transcript == before.history)
            let ids = viewModel.messages.map(\.id)

            await fixture.gateway.dropAllConnections()
            #expect(await eventually { !viewModel.connectionState.isConnected })

            // While this client is away, another one adds to the same session.
            let other = try ChatHarness.connection(to: fixture.gateway)
            try await other.connect()
            _ = try await ChatClient(connection: other).send(
                sessionKey: "main", message: "while you were away", idempotencyKey: "away-run")
            #expect(await eventually { await fixture.gateway.history(sessionKey: "main").count == 4 })
            await other.disconnect()

            await viewModel.start()
            #expect(viewModel.connectionState.isConnected)
            let after = await fixture.settled()
            #expect(after.transcript == after.history)
            #expect(after.history.count == 4)
            #expect(Array(viewModel.messages.map(\.id).prefix(2)) == ids)
            #expect(viewModel.messages.first?.id == id)
            #expect(Set(viewModel.messages.map(\.id)).count == viewModel.messages.count)
            #expect(await fixture.gateway.runCount() == 2)
        }
    }

    /// The socket drops in the middle of a reply; the run goes on at the gateway. After reconnecting,
    /// the transcript settles on history with one reply.
    @Test(arguments: GatewayFlavor.all)
    func reconnectingMidStreamSettlesOnHistory(flavor: GatewayFlavor) async throws {
        let agent = ScriptedAgent(chunkSize: 4, chunkDelayMs: 15)
        try await ChatHarness.withViewModel(flavor.configuration(agent: agent)) { fixture in
            let viewModel = fixture.viewModel
            await fixture.gateway.setFaults(FaultPlan(dropConnectionAfterRunFrames: 6))
            let id = await viewModel.send("a reply long enough to be cut in the middle")
            #expect(await eventually { !viewModel.connectionState.isConnected })
            await viewModel.start()
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.first?.id == id)
            #expect(await fixture.gateway.runCount() == 1)
        }
    }
}
