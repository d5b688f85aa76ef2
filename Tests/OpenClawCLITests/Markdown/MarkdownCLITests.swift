import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

/// `send` streaming a Markdown reply: rendered on a colour terminal, raw when piped or with `NO_COLOR`.
@Suite("Markdown in the terminal: the program")
struct MarkdownCLITests {
    /// A gateway whose agent answers every message with the fixture, in 7-character deltas.
    static func configuration(_ version: Int) -> TestGatewayConfiguration {
        var configuration = TestGatewayConfiguration(protocolNumber: version)
        configuration.agent = .custom { _ in
            AgentScript(steps: [.say(MarkdownFixture.reply)], chunkSize: 7, chunkDelayMs: 0)
        }
        return configuration
    }

    @Test(arguments: [3, 4])
    func sendOnAColourTerminalShowsTheRenderedReply(version: Int) async throws {
        try await CLITests.withGateway(Self.configuration(version)) { _, common in
            let process = try InteractiveProcess(
                ["send"] + common + ["report please"], mode: .terminal,
                environment: ["NO_COLOR": "", "COLUMNS": "40", "FORCE_HYPERLINK": "0", "TERM": "xterm-256color"])
            defer { process.killIfRunning() }
            try await process.waitFor("docs\u{1B}[0m.")
            #expect(try await process.waitForExit() == 0)
            let renderer = MarkdownTerminalRenderer(width: 40, hyperlinks: false)
            let expected = ScreenModel(MarkdownOutput.render(MarkdownFixture.reply, with: renderer)).lines
            let screen = ScreenModel(process.output)
            #expect(screen.lines == expected, "screen:\n\(screen.lines.joined(separator: "\n"))")
        }
    }

    @Test(arguments: [3, 4])
    func sendWithNoColorOnATerminalPrintsTheRawMarkdown(version: Int) async throws {
        try await CLITests.withGateway(Self.configuration(version)) { _, common in
            let process = try InteractiveProcess(["send"] + common + ["report please"], mode: .terminal)
            defer { process.killIfRunning() }
            try await process.waitFor("docs.")
            #expect(try await process.waitForExit() == 0)
            let screen = ScreenModel(process.output)
            #expect(
                screen.lines
                    == MarkdownFixture.reply.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }

    @Test func sendToAPipePrintsTheRawMarkdownUnchanged() async throws {
        try await CLITests.withGateway(Self.configuration(4)) { _, common in
            let result = try await CLIProcess.run(["send"] + common + ["report please"], environment: ["NO_COLOR": ""])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout == MarkdownFixture.reply + "\n")
        }
    }
}
