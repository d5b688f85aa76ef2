import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

/// `send` starts its handshake while the transcript database opens: still one attempt, still recorded.
@Suite("openclaw-chat send: the handshake beside the store")
struct SendEarlyConnectCLITests {
    @Test func aRefusedTokenIsTriedOnceAndSaidAsARefusal() async throws {
        try await CLITests.withGateway { gateway, _ in
            let state = CLIProcess.temporaryStateDirectory()
            let result = try await CLIProcess.run([
                "send", "--url", gateway.url, "--token", "not-the-token", "--state-dir", state, "hello",
            ])
            #expect(result.status == ExitStatus.auth, "stderr: \(result.stderr)")
            #expect(await gateway.receivedConnectParams().count == 1, "one attempt, not one early and one late")
            #expect(await gateway.sentUserMessages(sessionKey: "main").isEmpty)
        }
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
