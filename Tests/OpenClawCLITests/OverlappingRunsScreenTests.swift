import OpenClawTestGateway
import Testing

/// Messages typed one after another, quickly: every run is followed to its end and each reply is shown
/// under its own question, in order, as soon as it has arrived.
@Suite("openclaw-chat: overlapping runs on screen")
struct OverlappingRunsScreenTests {
    @Test func threeQuickMessagesEachGetTheirReplyUnderThem() async throws {
        let agent = ScriptedAgent.custom { message in
            AgentScript(steps: [.say("answer to \(message): fine.")], chunkSize: 4, chunkDelayMs: 5)
        }
        try await ChatScreenTests.withChat(agent: agent) { chat in
            chat.write("one\rtwo\rthree\r")
            let expected = [
                "› one", "answer to one: fine.", "› two", "answer to two: fine.", "› three", "answer to three: fine.",
            ]
            try await chat.waitForScreen("the three replies in order", timeout: .seconds(10)) { screen in
                let rows = screen.transcript.filter { expected.contains($0) }
                return rows == expected
            }
            let screen = chat.screen()
            #expect(!screen.transcript.contains { $0.contains("without a reply") }, "\(screen)")
            // Every reply gets its footer (model, tokens), under it. A reply not matched to its question in
            // history had none: its footer waited 5 s for a page that never carried it, holding the next reply.
            let footer = "(footer)"
            try await chat.waitForScreen("each reply with its footer", timeout: .seconds(8)) { screen in
                let rows = screen.transcript.map { $0.hasPrefix("  scripted-agent") ? footer : $0 }
                return rows.filter { expected.contains($0) || $0 == footer } == [
                    expected[0], expected[1], footer, expected[2], expected[3], footer, expected[4], expected[5],
                    footer,
                ]
            }
        }
    }

    /// The footer comes from the history read the `final` starts. On a loaded machine that read can take
    /// seconds; the footer waits for it, however long, instead of giving up on a clock.
    @Test func aReplyWhoseHistoryReadIsSlowStillGetsItsFooter() async throws {
        try await CLITests.withGateway(TestGatewayConfiguration(deltaThrottleMs: 0)) { gateway, common in
            let chat = try InteractiveProcess(
                ["chat"] + common, mode: .terminal, environment: ChatScreenTests.colour, size: ChatScreenTests.size)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            await gateway.setFaults(FaultPlan(delayResponsesMs: 6_000, delayedMethods: ["chat.history"]))
            chat.write("hi\r")
            try await chat.waitForScreen("the reply with its footer under it", timeout: .seconds(20)) { screen in
                let rows = screen.transcript
                guard let reply = rows.firstIndex(where: { $0.hasPrefix("You said: \"hi\"") }) else { return false }
                return rows[(reply + 1)...].contains { $0.hasPrefix("  scripted-agent") }
            }
            chat.endInput(mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "screen:\n\(chat.screen())")
        }
    }
}
