import Foundation
import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

/// `send` starts its handshake while the transcript database opens: still one attempt, still recorded.
@Suite("openclaw-chat send: the handshake beside the store")
struct SendEarlyConnectCLITests {
    /// The message, queued while the handshake ran, is taken back when the token is refused: the command
    /// said it was not sent, so no later session may send it.
    @Test func aRefusedTokenIsTriedOnceSaidAsARefusalAndNeverSentLater() async throws {
        try await CLITests.withGateway { gateway, _ in
            let state = CLIProcess.temporaryStateDirectory()
            let refused = try await Self.send("never sent", to: gateway, token: "not-the-token", state: state)
            #expect(refused.status == ExitStatus.auth, "stderr: \(refused.stderr)")
            #expect(await gateway.receivedConnectParams().count == 1, "one attempt, not one early and one late")
            #expect(await gateway.sentUserMessages(sessionKey: "main").isEmpty)
            let later = try await Self.send("sent later", to: gateway, token: "test-token", state: state)
            #expect(later.status == 0, "stderr: \(later.stderr)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["sent later"])
        }
    }

    static func send(
        _ text: String, to gateway: TestGateway, token: String, state: String
    ) async throws -> CLIProcess.Result {
        try await CLIProcess.run(["send", "--url", gateway.url, "--token", token, "--state-dir", state, text])
    }

    /// One message, one reply: `send` asks for nothing a screen would follow over time (the gateway's
    /// commands, live usage), so its message is not queued behind those requests.
    @Test func sendAsksNothingOnlyAScreenNeeds() async throws {
        try await CLITests.withGateway { gateway, common in
            let sent = try await CLIProcess.run(["send"] + common + ["hello"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            #expect(await gateway.requestCount(method: "commands.list") == 0)
            #expect(await gateway.requestCount(method: "sessions.subscribe") == 0)
            #expect(await gateway.requestCount(method: "chat.send") == 1)
        }
    }

    /// The message is queued while the handshake runs, so `chat.send` leaves right after `hello-ok`
    /// instead of behind the outbox's writes. The gateway holds its challenge back; the outbox journal
    /// (what a later session would deliver) must hold the message before any `connect` arrives.
    @Test func theMessageIsOnDiskBeforeTheHandshakeEnds() async throws {
        try await CLITests.withGateway { gateway, _ in
            // As long as the hold below, for the same reason.
            await gateway.setFaults(FaultPlan(challengeDelayMs: 4_000))
            let state = CLIProcess.temporaryStateDirectory()
            async let sent = Self.send("queued while connecting", to: gateway, token: "test-token", state: state)
            #expect(try await Self.journal(in: state, contains: "queued while connecting"))
            #expect(await gateway.receivedConnectParams().isEmpty, "queued before the handshake's connect")
            let result = try await sent
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["queued while connecting"])
        }
    }

    /// Ctrl-C while the handshake is held: the queued message is taken back at once, so neither this
    /// process (whose handshake then completes) nor a later session sends it. The hold gives a loaded
    /// machine (the whole CLI suite at once on two cores) time to start the process, read its store and
    /// queue before the challenge comes (2 s was not enough once in CI), and stays under the client's
    /// 6 s challenge timeout.
    @Test func ctrlCDuringTheHandshakeTakesTheMessageBack() async throws {
        try await CLITests.withGateway { gateway, _ in
            await gateway.setFaults(FaultPlan(challengeDelayMs: 4_000))
            let state = CLIProcess.temporaryStateDirectory()
            let send = try InteractiveProcess(
                ["send", "--url", gateway.url, "--token", "test-token", "--state-dir", state, "stopped early"],
                mode: .pipes)
            defer { send.killIfRunning() }
            send.endInput(mode: .pipes)
            #expect(try await Self.journal(in: state, contains: "stopped early"), "queued during the handshake")
            send.interrupt(mode: .pipes)
            let status = try await send.waitForExit()
            #expect(status == ExitStatus.aborted, "output: \(send.output)")
            #expect(send.output.contains("not sent"), "output: \(send.output)")
            await gateway.setFaults(FaultPlan())
            let later = try await Self.send("sent later", to: gateway, token: "test-token", state: state)
            #expect(later.status == 0, "stderr: \(later.stderr)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["sent later"])
        }
    }

    /// Whether the outbox journal in `state` mentions `text` within 10 s.
    static func journal(in state: String, contains text: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let journal = (try? String(contentsOfFile: state + "/transcripts.sqlite-outbox", encoding: .utf8)) ?? ""
            if journal.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func theMessageIsDeliveredAndRecordedInTheStore() async throws {
        try await CLITests.withGateway { gateway, common in
            let sent = try await CLIProcess.run(["send"] + common + ["remember the tunnel"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            #expect(await gateway.receivedConnectParams().count == 1)
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["remember the tunnel"])
            let found = try await CLIProcess.run(["search"] + common + ["tunnel"])
            #expect(found.status == 0, "stderr: \(found.stderr)")
            #expect(found.stdout.contains("remember the [tunnel]"), "the match is marked: \(found.stdout)")
        }
    }
}
