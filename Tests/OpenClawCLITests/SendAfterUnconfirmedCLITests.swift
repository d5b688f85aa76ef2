import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A `send` after an earlier `send` to another session ended unconfirmed (issue 38, point 1): the new
/// one confirms the earlier message from that session's history as it connects, and its own message
/// used to be left behind — never written, the command waiting for its timeout. It must go out.
@Suite("openclaw-chat send: after an unconfirmed send to another session")
struct SendAfterUnconfirmedCLITests {
    @Test func theNextSendToAnotherSessionDeliversItsOwnMessage() async throws {
        var configuration = TestGatewayConfiguration()
        // The first run streams slowly (one chunk every 5 s), so `--timeout 1` ends the command first.
        configuration.agent = ScriptedAgent(slowChunkDelayMs: 5_000)
        try await CLITests.withGateway(configuration) { gateway, common in
            // The stop request goes unanswered: no `aborted` event brings a page that would confirm the
            // message before the command exits, so it is left accepted and unconfirmed in the outbox.
            await gateway.setFaults(FaultPlan(ignoreRequests: ["chat.abort"]))
            let first = try await CLIProcess.run(
                ["send", "--session", "alpha", "--timeout", "1"] + common + ["slow first"], timeout: .seconds(30))
            #expect(first.status == 6, "stderr: \(first.stderr)")
            #expect(await gateway.sentUserMessages(sessionKey: "alpha") == ["slow first"])

            // Pages take 300 ms: the earlier message is being confirmed while the new one is queued.
            await gateway.setFaults(FaultPlan(delayResponsesMs: 300))
            let second = try await CLIProcess.run(
                ["send", "--session", "beta", "--timeout", "15"] + common + ["the second"], timeout: .seconds(40))
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(second.stdout.contains("You said: \"the second\""), "stdout: \(second.stdout)")
            #expect(await gateway.sentUserMessages(sessionKey: "beta") == ["the second"])
        }
    }
}
