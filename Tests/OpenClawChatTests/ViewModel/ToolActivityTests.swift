import OpenClawChat
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// Tool activity: the connection asks for `tool-events`, so the reply shows the thinking and the
/// `exec` call as steps with a readable summary and a gateway-timed duration.
@MainActor
@Suite("View model: tool activity")
struct ToolActivityTests {
    static let summary = "exec: curl -s https://status.example.test/health"

    @Test(arguments: GatewayFlavor.all)
    func aToolRunShowsItsStepsOnTheReply(flavor: GatewayFlavor) async throws {
        // The tool runs long enough that its start and end never share one main-actor turn, even on a loaded
        // machine (60 ms did, once, in a full parallel run): the running step must be seen on its own.
        let agent = ScriptedAgent(chunkDelayMs: 20, toolDurationMs: 400)
        try await ChatHarness.withViewModel(flavor.configuration(agent: agent)) { fixture in
            let viewModel = fixture.viewModel
            let runId = await viewModel.send("run the health tool")
            let stream = await LiveReplyObserver.watch(viewModel)
            #expect(stream.replyIds == ["reply:\(runId)"])

            // Live: the reply row carries a thinking step, then the exec call, which settles.
            let running = stream.snapshots.contains { reply in
                reply.activity.contains { $0.kind == .tool(name: "exec") && $0.status == .running }
            }
            #expect(running, "the exec step was never seen running")
            let last = try #require(stream.snapshots.last)
            #expect(last.activity.map(\.kind) == [.thinking, .tool(name: "exec")])
            let liveTool = try #require(last.activity.last)
            #expect(liveTool.status == .succeeded)
            #expect(liveTool.summary() == Self.summary)
            #expect((liveTool.durationMs ?? 0) > 0)
            #expect(last.activity.first?.summary() == "The user wants a tool run; I will call exec.")
            #expect(!last.text.isEmpty && "The service is healthy: the check returned status ok.".hasPrefix(last.text))

            // At rest: one row per stored message; the steps sit on the assistant message that made the
            // call, with the durations the live events measured.
            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant, .toolResult, .assistant])
            #expect(viewModel.messages.last?.id == "reply:\(runId)")
            let caller = viewModel.messages[1]
            #expect(caller.activity.map(\.kind) == [.thinking, .tool(name: "exec")])
            let storedTool = try #require(caller.activity.last)
            #expect(storedTool.id == liveTool.id)
            #expect(storedTool.status == .succeeded)
            #expect(storedTool.summary() == Self.summary)
            #expect(storedTool.durationMs == liveTool.durationMs)
        }
    }
}
