import OpenClawChat
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// Stopping a reply mid-stream: the row keeps what arrived and ends `stopped`, and history (which
/// stores the partial reply with an abort marker) confirms it in place.
@MainActor
@Suite("View model: abort")
struct AbortTests {
    @Test(arguments: GatewayFlavor.all)
    func abortingMidStreamStopsTheReplyWithItsPartialText(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            let runId = await viewModel.send("talk until stopped")
            // The gateway paces deltas (one per 150 ms at most), so the row may show less than was said.
            let streaming = await eventually { viewModel.runningReply?.text.hasPrefix("word1") == true }
            #expect(streaming)
            let replyId = try #require(viewModel.runningReply?.id)

            await viewModel.abort()
            let stopped = await eventually { viewModel.transcript.entry(id: replyId)?.status == .stopped }
            #expect(stopped)
            #expect(viewModel.transcript.outcome(ofRun: runId) == .stopped(reason: "rpc"))
            #expect(viewModel.isRunning == false)
            let partial = viewModel.transcript.entry(id: replyId)?.text ?? ""
            #expect(partial.hasPrefix("word1") && ScriptedAgent.heldWords.hasPrefix(partial))

            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.map(\.id) == [runId, replyId])
            #expect(viewModel.messages.last?.status == .stopped)
            #expect(viewModel.messages.last?.text == partial)
            #expect(viewModel.alerts.isEmpty)
        }
    }

    @Test func abortWithNothingRunningDoesNothing() async throws {
        try await ChatHarness.withViewModel(GatewayFlavor.v4WithMessage.configuration()) { fixture in
            await fixture.viewModel.abort()
            #expect(fixture.viewModel.alerts.isEmpty)
            #expect(fixture.viewModel.messages.isEmpty)
        }
    }
}
