import Foundation
import OpenClawTestGateway
import Testing

/// The chat prints history's compaction and reset rows as divider lines, marks a message history cut
/// short with the number `/expand` takes, and `/expand N` prints it whole.
@Suite("openclaw-chat: dividers and /expand")
struct ExpandCLITests {
    @Test func dividersAreLinesAndExpandPrintsTheWholeMessage() async throws {
        let long = String(repeating: "lighthouse ", count: 6) + "END-OF-ANSWER"
        try await CLITests.withGateway(TestGatewayConfiguration(historyMaxChars: 20)) { gateway, common in
            await gateway.appendMessage(sessionKey: "main", role: "user", text: "how far is the cape?")
            await gateway.appendBoundary(sessionKey: "main", .compaction(tokensBefore: 9000, tokensAfter: 1200))
            await gateway.appendMessage(sessionKey: "main", role: "assistant", text: long)
            await gateway.appendBoundary(sessionKey: "main", .reset)
            let result = try await CLIProcess.run(["chat"] + common, stdin: "/history\n/expand 3\n/quit\n")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let out = result.stdout
            #expect(out.contains("──── Context compacted (9,000 → 1,200 tokens) ────"), "\(out)")
            #expect(out.contains("──── Session reset ────"), "\(out)")
            #expect(out.contains("… (truncated, /expand 3)"), "\(out)")
            #expect(!out.contains("...(truncated)..."), "the gateway's marker is replaced by the note: \(out)")
            #expect(out.contains("END-OF-ANSWER"), "/expand printed the whole message: \(out)")
            #expect(await gateway.requestCount(method: "chat.message.get") == 1)
        }
    }
}
