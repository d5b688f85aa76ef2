import OpenClawTestGateway
import Testing

/// The running line in a narrow window: cut to one row, so replacing or clearing it leaves nothing.
@Suite("The running line on a narrow screen")
struct StatusLineScreenTests {
    @Test func aRunningLineWiderThanTheWindowLeavesNoRowBehind() async throws {
        var configuration = TestGatewayConfiguration(deltaThrottleMs: 0)
        configuration.agent = ScriptedAgent(toolDurationMs: 1_500)
        try await CLITests.withGateway(configuration) { _, common in
            let process = try InteractiveProcess(
                ["send"] + common + ["use a tool"], mode: .terminal, environment: ChatScreenTests.colour,
                size: .init(columns: 40, rows: 12))
            defer { process.killIfRunning() }
            try await process.waitForScreen("the running line", timeout: .seconds(10)) { screen in
                screen.transcript.contains { $0.hasPrefix("running exec") }
            }
            #expect(try await process.waitForExit() == 0)
            let screen = process.screen()
            #expect(
                !screen.transcript.contains { $0.contains("running exec") || $0.contains("example.test/he") },
                "\(screen)")
            #expect(screen.transcript.contains { $0.contains("healthy") }, "\(screen)")
        }
    }
}
