import Foundation
import OpenClawProtocol
import OpenClawTestSupport
import Testing

/// A reply whose events arrive with the `chat.send` answer, in one write, or before it (issue 38,
/// point 2), from a gateway whose history never carries the run: the page asked for at the run's end
/// dropped the reply's row before `send` looked, and it printed "(the agent ended its run without a
/// reply)" about half the time. The reply the events brought must be printed, every time.
@Suite("openclaw-chat send: a reply in the same burst as its acknowledgement")
struct ReplyBurstCLITests {
    @Test(arguments: [AckPlacement.withFirstEvents, .afterEvents])
    func theReplyIsPrintedWhateverComesFirst(placement: AckPlacement) async throws {
        let script = HostileScript(
            protocolNumber: 4, onChatSend: [.appendingDeltas(count: 3, chunk: "burst ", final: true)],
            ackPlacement: placement)
        let gateway = try await HostileGateway.start(script)
        // A race lost about one time in two: eight tries make a pass by luck unlikely (1 in 256).
        for attempt in 1...8 {
            let result = try await CLIProcess.run(
                [
                    "send", "--url", gateway.url, "--token", "test-token", "--state-dir",
                    CLIProcess.temporaryStateDirectory(), "--timeout", "20", "try \(attempt)",
                ], timeout: .seconds(40))
            #expect(result.status == 0, "try \(attempt), stderr: \(result.stderr)")
            #expect(result.stdout.contains("burst burst burst"), "try \(attempt), stdout: \(result.stdout)")
            #expect(!result.stderr.contains("without a reply"), "try \(attempt), stderr: \(result.stderr)")
        }
        #expect(gateway.observed.requests.filter { $0 == "chat.send" }.count == 8)
        await gateway.stop()
    }
}
