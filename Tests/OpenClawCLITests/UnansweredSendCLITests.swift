import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// A gateway that takes `chat.send` and never answers it (issue 38, point 6): every bound — `--timeout`,
/// `--idle-timeout`, the acknowledgement wait, Ctrl-D — ends the command within a second of itself, and
/// what is said is what is known: the message left, and the gateway never acknowledged it.
@Suite("openclaw-chat: bounds on a gateway that never answers chat.send")
struct UnansweredSendCLITests {
    static let unanswered = FaultPlan(ignoreRequests: ["chat.send"])

    static func timed(_ body: () async throws -> CLIProcess.Result) async rethrows -> (CLIProcess.Result, Duration) {
        let start = ContinuousClock.now
        let result = try await body()
        return (result, ContinuousClock.now - start)
    }

    @Test func sendTimeoutIsHonouredAndSaysTheMessageWasNeverAcknowledged() async throws {
        try await CLITests.withGateway { gateway, common in
            await gateway.setFaults(Self.unanswered)
            let (result, elapsed) = try await Self.timed {
                try await CLIProcess.run(
                    ["send", "--timeout", "3"] + common + ["anyone there?"], timeout: .seconds(60))
            }
            #expect(result.status == 6, "stderr: \(result.stderr)")
            #expect(elapsed < .seconds(6), "took \(elapsed)")
            #expect(result.stderr.contains("never acknowledged the message"), "stderr: \(result.stderr)")
            #expect(result.stderr.contains("within 3 s; it may not have arrived"), "stderr: \(result.stderr)")
            #expect(await gateway.requestCount(method: "chat.send") == 1)
        }
    }

    @Test func sendIdleTimeoutIsHonouredAndSaysTheMessageWasNeverAcknowledged() async throws {
        try await CLITests.withGateway { gateway, common in
            await gateway.setFaults(Self.unanswered)
            let (result, elapsed) = try await Self.timed {
                try await CLIProcess.run(
                    ["send", "--idle-timeout", "3"] + common + ["anyone there?"], timeout: .seconds(60))
            }
            #expect(result.status == 6, "stderr: \(result.stderr)")
            #expect(elapsed < .seconds(6), "took \(elapsed)")
            #expect(
                result.stderr.contains("never acknowledged the message"), "stderr: \(result.stderr)")
            #expect(result.stderr.contains("without any progress"), "stderr: \(result.stderr)")
        }
    }

    /// No bound of the person's: the acknowledgement is awaited as long as one `chat.send` request is
    /// (35 s), not until the gateway could have forgotten the message (280 s).
    @Test func sendWithoutTimeoutGivesUpWhenTheAcknowledgementIsOverdue() async throws {
        try await CLITests.withGateway { gateway, common in
            await gateway.setFaults(Self.unanswered)
            let (result, elapsed) = try await Self.timed {
                try await CLIProcess.run(["send"] + common + ["anyone there?"], timeout: .seconds(90))
            }
            #expect(result.status == 3, "stderr: \(result.stderr)")
            #expect(elapsed >= .seconds(34) && elapsed < .seconds(40), "took \(elapsed)")
            #expect(
                result.stderr.contains("never acknowledged the message"), "stderr: \(result.stderr)")
            #expect(result.stderr.contains("within 35 s; it may not have arrived"), "stderr: \(result.stderr)")
        }
    }

    /// Ctrl-D while the message waits for its answer quits at once, saying the message may not have
    /// arrived and stays queued.
    @Test func ctrlDWhileTheGatewayHoldsTheMessageQuitsAtOnce() async throws {
        try await CLITests.withGateway { gateway, common in
            await gateway.setFaults(Self.unanswered)
            let chat = try InteractiveProcess(["chat"] + common, mode: .terminal)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            chat.type("anyone there?", mode: .terminal)
            let sent = await eventually { await gateway.requestCount(method: "chat.send") == 1 }
            #expect(sent)
            let start = ContinuousClock.now
            chat.endInput(mode: .terminal)
            let status = try await chat.waitForExit(timeout: .seconds(15))
            let elapsed = ContinuousClock.now - start
            #expect(status == 0, "output:\n\(chat.output)")
            #expect(elapsed < .seconds(2), "took \(elapsed)")
            #expect(chat.output.contains("never acknowledged 1 message"), "output:\n\(chat.output)")
        }
    }
}
