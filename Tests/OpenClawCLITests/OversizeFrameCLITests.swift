import Foundation
import OpenClawProtocol
import OpenClawTestSupport
import Testing

/// `send` when the gateway sends a reply part larger than the connection accepts (issue 38.8): 40 MiB
/// was dropped and the reply printed without it, exit 0; 60 MiB ended as a plain "connection dropped"
/// after 32 s. The 1009 reason must be said, the reply never presented as complete, and the exit
/// prompt (status 3).
@Suite("openclaw-chat send: a frame larger than the connection allows")
struct OversizeFrameCLITests {
    @Test(arguments: [40, 60])
    func theReplyIsNotShownAsCompleteAndTheReasonIsSaid(mebibytes: Int) async throws {
        let big = String(repeating: "x", count: mebibytes << 20)
        let script = HostileScript(
            protocolNumber: 4,
            onChatSend: [.replyParts(["part one ", big, " part three"], finalText: "part one  part three")])
        let gateway = try await HostileGateway.start(script)
        let result = try await CLIProcess.run(
            [
                "send", "--url", gateway.url, "--token", "test-token", "--state-dir",
                CLIProcess.temporaryStateDirectory(), "--timeout", "60", "hello",
            ], timeout: .seconds(90))
        #expect(result.status == 3, "stdout: \(result.stdout.prefix(200)), stderr: \(result.stderr)")
        #expect(
            result.stderr.contains("The gateway sent a frame larger than 25 MiB, the most this connection accepts"),
            "\(result.stderr)")
        #expect(result.stderr.contains("may be missing a part"), "\(result.stderr)")
        #expect(!result.stdout.contains("part three"), "\(result.stdout.prefix(200))")
        // Ended by the oversized frame itself, not after reconnecting and waiting for the rest of the reply
        // (which took 32 s and then read as a plain drop). No wall-clock bound: a loaded machine moves it.
        #expect(!result.stderr.contains("reconnected"), "\(result.stderr)")
        await gateway.stop()
    }
}
