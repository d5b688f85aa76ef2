import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The connection reconnects by itself (the default policy) and nobody calls `start()` again: the view
/// model hears the new `connected`, reloads history, and the transcript heals.
@MainActor
@Suite("View model: automatic reconnect")
struct AutoReconnectTests {
    @Test(arguments: GatewayFlavor.all)
    func aDropInTheMiddleOfAReplyHealsWithoutTheUser(flavor: GatewayFlavor) async throws {
        let agent = ScriptedAgent(chunkSize: 4, chunkDelayMs: 15)
        try await ChatHarness.withViewModel(flavor.configuration(agent: agent)) { fixture in
            let viewModel = fixture.viewModel
            let before = viewModel.connectionState.session?.generation ?? 0
            await fixture.gateway.setFaults(FaultPlan(dropConnectionAfterRunFrames: 6))
            let id = await viewModel.send("a reply long enough to be cut in the middle")

            #expect(
                await eventually(timeout: .seconds(10)) {
                    (viewModel.connectionState.session?.generation ?? 0) > before
                })
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.first?.id == id)
            #expect(await fixture.gateway.runCount() == 1)
        }
    }

    /// v4: the run is still streaming when the connection is back; `inFlightRun` gives the reply its
    /// text so far, and the deltas that follow continue it.
    @Test func aRunStillStreamingAfterTheReconnectIsPickedUpFromInFlightRun() async throws {
        let agent = ScriptedAgent(chunkSize: 6, chunkDelayMs: 5, slowChunkDelayMs: 30)
        try await ChatHarness.withViewModel(GatewayFlavor.v4WithMessage.configuration(agent: agent)) { fixture in
            let viewModel = fixture.viewModel
            let before = viewModel.connectionState.session?.generation ?? 0
            await fixture.gateway.setFaults(FaultPlan(dropConnectionAfterRunFrames: 6))
            await viewModel.send("slow please")

            #expect(
                await eventually(timeout: .seconds(10)) {
                    (viewModel.connectionState.session?.generation ?? 0) > before
                        && !(viewModel.runningReply?.text.isEmpty ?? true)
                })
            let midway = viewModel.runningReply?.text ?? ""
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            let reply = settled.history.last?.text ?? ""
            #expect(reply.hasPrefix(midway))
            #expect(reply.contains("word60"))
        }
    }
}
