import OpenClawChat
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A run that fails: the reply row shows the gateway's error, once, live and after history.
@MainActor
@Suite("View model: failed runs")
struct RunErrorTests {
    static let message = "LLM request failed: scripted failure"

    @Test(arguments: GatewayFlavor.all)
    func aFailedRunShowsItsErrorOnOneRow(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            let runId = await viewModel.send("please fail now")
            let ended = await eventually { viewModel.transcript.outcome(ofRun: runId) != nil }
            #expect(ended)
            #expect(viewModel.transcript.outcome(ofRun: runId) == .failed(message: Self.message, kind: .unknown))

            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.map(\.id) == [runId, "reply:\(runId)"])
            let reply = try #require(viewModel.messages.last)
            #expect(reply.status == .failed(Self.message))
            #expect(reply.text == "Working on it")
            #expect(Set(viewModel.messages.map(\.id)).count == viewModel.messages.count)
        }
    }
}
