import OpenClawChat
import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

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

/// The status row under the input line, as the TUI's footer: session, model, thinking level, tokens and
/// the gateway; it follows changes at once and stays out of the transcript.
@Suite("The status row under the input line")
struct StatusRowScreenTests {
    @Test func theStatusRowFollowsTheSessionsSettingsAndStaysOutOfTheTranscript() async throws {
        try await ChatScreenTests.withChat { chat in
            try await chat.waitForScreen("the status row", timeout: .seconds(5)) { screen in
                screen.rows.indices.contains(screen.cursorRow + 1)
                    && screen.rows[screen.cursorRow + 1].hasPrefix(
                        "● main · openclaw-test/scripted-agent · thinking off · context 200k · ws://127.0.0.1:")
            }
            chat.type("/think high", mode: .terminal)
            try await chat.waitForScreen("the new level", timeout: .seconds(5)) { screen in
                screen.rows[screen.cursorRow + 1].hasPrefix("● main · openclaw-test/scripted-agent · thinking high")
            }
            chat.type("hello", mode: .terminal)
            try await chat.waitForScreen("the reply, then the row again under the line", timeout: .seconds(10)) {
                screen in
                screen.transcript.contains { $0.hasSuffix("is the scripted test agent.") }
                    && ChatScreenTests.isStatusRow(screen.rows[screen.cursorRow + 1])
            }
            // The reply's usage arrives live (`sessions.changed`): tokens against the context window.
            try await chat.waitForScreen("the live token count", timeout: .seconds(5)) { screen in
                screen.rows[screen.cursorRow + 1].contains("/200k tokens")
            }
            let screen = chat.screen()
            #expect(screen.transcript.count(where: ChatScreenTests.isStatusRow) == 1, "\(screen)")
            #expect(screen.transcript.last.map(ChatScreenTests.isStatusRow) == true, "\(screen)")
            chat.write("\u{03}")
        }
    }

    @Test func aNarrowWindowDropsTheAddressFirst() {
        let row = StatusRow(
            lead: "●", parts: ["main", "openai/gpt-5", "thinking off", "12.3k/200k tokens", "ws://mini.local:18789"],
            dropOrder: [4, 3, 1, 2], dim: false)
        #expect(
            row.text(columns: 100) == "● main · openai/gpt-5 · thinking off · 12.3k/200k tokens · ws://mini.local:18789"
        )
        #expect(row.text(columns: 60) == "● main · openai/gpt-5 · thinking off · 12.3k/200k tokens")
        #expect(row.text(columns: 40) == "● main · openai/gpt-5 · thinking off")
        #expect(row.text(columns: 20) == "● main")
        #expect(StatusLine.compact(12_345) == "12.3k" && StatusLine.compact(200_000) == "200k")
        #expect(StatusLine.compact(1_500_000) == "1.5M" && StatusLine.compact(999) == "999")
        // Counts come from the gateway: a huge or negative one is shown bounded, never overflows.
        #expect(!StatusLine.compact(Int.max).isEmpty && StatusLine.compact(-5) == "0")
        #expect(TokenCount.dollars(1e300) == "?" && TokenCount.dollars(.infinity) == "?")
    }
}
