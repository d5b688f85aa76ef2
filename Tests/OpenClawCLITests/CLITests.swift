import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("openclaw-chat as a subprocess")
struct CLITests {
    static func withGateway(
        _ configuration: TestGatewayConfiguration = TestGatewayConfiguration(),
        _ body: (TestGateway, [String]) async throws -> Void
    ) async throws {
        let gateway = try await TestGateway.start(configuration)
        let common = [
            "--url", gateway.url, "--token", "test-token", "--state-dir", CLIProcess.temporaryStateDirectory(),
        ]
        do {
            try await body(gateway, common)
            await gateway.stop()
        } catch {
            await gateway.stop()
            throw error
        }
    }

    @Test(arguments: [3, 4])
    func sendPrintsTheReplyAndExitsZero(version: Int) async throws {
        try await Self.withGateway(TestGatewayConfiguration(protocolNumber: version)) { gateway, common in
            let result = try await CLIProcess.run(["send"] + common + ["hello from the cli"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("You said: \"hello from the cli\""))
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["hello from the cli"])
        }
    }

    @Test func sendReadsTheMessageFromStdin() async throws {
        try await Self.withGateway { gateway, common in
            let result = try await CLIProcess.run(["send"] + common + ["-"], stdin: "piped words\n")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["piped words"])
        }
    }

    @Test func jsonOutputIsOneParsableObjectPerLineEndingWithTheFinal() async throws {
        try await Self.withGateway { _, common in
            let result = try await CLIProcess.run(["send", "--json"] + common + ["please use a tool"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let objects = try lines.map { try JSONParser().parse($0) }
            #expect(objects.count >= 3)
            #expect(objects.contains { $0["type"] == "activity" && $0["kind"] == "tool" })
            #expect(objects.contains { $0["type"] == "delta" })
            let final = try #require(objects.last)
            #expect(final["type"] == "final")
            let streamed = objects.filter { $0["type"] == "delta" }.compactMap { $0["text"]?.stringValue }.joined()
            #expect(final["text"]?.stringValue == streamed)
        }
    }

    @Test func aWrongTokenIsAClearMessageAndANonZeroExit() async throws {
        try await Self.withGateway { _, common in
            var arguments = common
            arguments[3] = "definitely-wrong-token"
            let result = try await CLIProcess.run(["send"] + arguments + ["hi"])
            #expect(result.status == 4)
            #expect(result.stderr.contains("refused the token"))
            #expect(result.stderr.contains("→"))
            #expect(!result.stderr.contains("definitely-wrong-token"))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func pairingRequiredPrintsTheApproveCommand() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.pairing = .requireApproval
        try await Self.withGateway(configuration) { gateway, common in
            let result = try await CLIProcess.run(["send"] + common + ["hi"])
            #expect(result.status == 5)
            let requestId = try #require(await gateway.pendingPairingRequests().first)
            #expect(result.stderr.contains("openclaw devices approve \(requestId)"))
            await gateway.approvePairing(requestId: requestId)
            let again = try await CLIProcess.run(["send"] + common + ["hi"])
            #expect(again.status == 0, "stderr: \(again.stderr)")
        }
    }

    @Test(arguments: [3, 4])
    func historyAndSessionsWork(version: Int) async throws {
        try await Self.withGateway(TestGatewayConfiguration(protocolNumber: version)) { _, common in
            let sent = try await CLIProcess.run(["send"] + common + ["remember this"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            let history = try await CLIProcess.run(["history", "--json"] + common)
            #expect(history.status == 0, "stderr: \(history.stderr)")
            let messages = try history.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
            #expect(messages.first?["role"] == "user")
            #expect(messages.first?["text"] == "remember this")
            #expect(messages.last?["role"] == "assistant")
            let plain = try await CLIProcess.run(["history"] + common)
            #expect(plain.stdout.contains("remember this"))
            let sessions = try await CLIProcess.run(["sessions"] + common)
            #expect(sessions.status == 0, "stderr: \(sessions.stderr)")
            // One name per session: the main session is `main`, as --session calls it.
            #expect(sessions.stdout.contains("main  Main"))
            #expect(!sessions.stdout.contains("agent:main:main"))
        }
    }

    @Test func statusReportsTheNegotiatedProtocol() async throws {
        try await Self.withGateway(TestGatewayConfiguration(protocolNumber: 3)) { _, common in
            let result = try await CLIProcess.run(["status", "--json"] + common)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let status = try JSONParser().parse(result.stdout)
            #expect(status["protocol"] == 3)
            #expect(status["deviceId"]?.stringValue?.count == 64)
        }
    }

    @Test func doctorPassesEveryStepAgainstAHealthyGateway() async throws {
        try await Self.withGateway { _, common in
            let result = try await CLIProcess.run(["doctor"] + common)
            #expect(result.status == 0, "stdout: \(result.stdout) stderr: \(result.stderr)")
            for step in ["URL", "DNS", "TCP", "WebSocket", "Challenge", "Protocol", "Auth", "Pairing", "Scopes"] {
                #expect(result.stdout.contains("✓ \(step)"))
            }
        }
    }

    @Test func doctorPointsAtTheFailingStepWithAFix() async throws {
        let result = try await CLIProcess.run([
            "doctor", "--url", "ws://127.0.0.1:1", "--state-dir", CLIProcess.temporaryStateDirectory(),
        ])
        #expect(result.status != 0)
        #expect(result.stdout.contains("✗ TCP"))
        #expect(result.stdout.contains("fix:"))
    }

    @Test func demoAnswersAMessagePipedOnStdin() async throws {
        let result = try await CLIProcess.run(
            ["demo", "--state-dir", CLIProcess.temporaryStateDirectory()],
            stdin: "hello demo\n"
        )
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("You said: \"hello demo\""))
    }

    @Test func withNoGatewayConfiguredTheDefaultCommandStartsTheDemo() async throws {
        let result = try await CLIProcess.run(
            ["--state-dir", CLIProcess.temporaryStateDirectory()],
            stdin: "hi\n",
            environment: ["HOME": CLIProcess.temporaryStateDirectory()]
        )
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("demo gateway"))
        #expect(result.stdout.contains("You said: \"hi\""))
    }

    @Test func loginSavesTheTokenReadableByTheOwnerOnly() async throws {
        try await Self.withGateway { _, common in
            let state = common[5]
            let login = try await CLIProcess.run(["login"] + common)
            #expect(login.status == 0, "stderr: \(login.stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: state + "/credentials/gateway.json")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            // Later commands need no flags.
            let sent = try await CLIProcess.run(["send", "--state-dir", state, "after login"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            let logout = try await CLIProcess.run(["logout", "--state-dir", state])
            #expect(logout.status == 0)
            #expect(!FileManager.default.fileExists(atPath: state + "/credentials/gateway.json"))
        }
    }
}
