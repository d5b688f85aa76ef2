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
            let start = ContinuousClock.now
            chat.write("one\rtwo\rthree\r")
            let expected = [
                "› one", "answer to one: fine.", "› two", "answer to two: fine.", "› three", "answer to three: fine.",
            ]
            try await chat.waitForScreen("the three replies in order", timeout: .seconds(10)) { screen in
                let rows = screen.transcript.filter { expected.contains($0) }
                return rows == expected
            }
            let elapsed = ContinuousClock.now - start
            let screen = chat.screen()
            #expect(!screen.transcript.contains { $0.contains("without a reply") }, "\(screen)")
            // Every reply gets its footer (model, tokens), under it.
            try await chat.waitForScreen("three footers", timeout: .seconds(5)) { screen in
                screen.transcript.count { $0.hasPrefix("  scripted-agent") } == 3
            }
            // The gateway ends all three within a few hundred milliseconds; the screen follows at once (a reply
            // not matched to its question made its footer wait 5 s for history, then the next reply).
            #expect(elapsed < .seconds(4.5), "took \(elapsed):\n\(screen)")
        }
    }
}
