import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// One-shot commands are what scripts and cron jobs run: a connection that drops under them is ridden
/// out, within a bound, and the exit code says how the run really ended.
@Suite("openclaw-chat: one-shot commands across a dropped connection")
struct OneShotDropTests {
    @Test(arguments: [3, 4])
    func sendCutMidReplyPrintsTheWholeReplyOnceAndExitsZero(version: Int) async throws {
        var configuration = TestGatewayConfiguration(protocolNumber: version)
        configuration.agent = ScriptedAgent(slowChunkDelayMs: 30)
        try await CLITests.withGateway(configuration) { gateway, common in
            await gateway.setFaults(FaultPlan(dropConnectionAfterRunFrames: 3))
            let result = try await CLIProcess.run(["send", "--json"] + common + ["slow please"], timeout: .seconds(60))
            #expect(result.status == 0, "stderr: \(result.stderr)\nstdout: \(result.stdout)")
            let lines = try result.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
            #expect(lines.contains { $0["type"] == "reconnected" })
            let final = lines.last { $0["type"] == "final" }?["text"]?.stringValue ?? ""
            #expect(final.hasSuffix("word60 ") || final.hasSuffix("word60"))
            let streamed = lines.filter { $0["type"] == "delta" }.compactMap { $0["text"]?.stringValue }.joined()
            #expect(streamed.components(separatedBy: "word1 ").count == 2, "printed once: \(streamed)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["slow please"])
        }
    }

    @Test(arguments: [3, 4], [DropPoint.beforeAck, .afterAck])
    func sendCutAroundTheAckDeliversOnceAndExitsZero(version: Int, point: DropPoint) async throws {
        try await CLITests.withGateway(TestGatewayConfiguration(protocolNumber: version)) { gateway, common in
            await gateway.setFaults(FaultPlan(dropConnectionOnChatSend: point))
            let result = try await CLIProcess.run(["send"] + common + ["around the ack"], timeout: .seconds(60))
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.components(separatedBy: "You said: \"around the ack\"").count == 2)
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["around the ack"])
        }
    }

    /// The final event is lost with the socket: the reply comes from history after the reconnect,
    /// printed once.
    @Test(arguments: [3, 4])
    func sendCutRightBeforeTheFinalPrintsTheReplyOnceAndExitsZero(version: Int) async throws {
        try await CLITests.withGateway(TestGatewayConfiguration(protocolNumber: version)) { gateway, common in
            await gateway.setFaults(FaultPlan(dropConnectionBeforeRunFinal: true))
            let result = try await CLIProcess.run(
                ["send", "--json"] + common + ["before the final"], timeout: .seconds(60))
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let lines = try result.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
            #expect(lines.contains { $0["type"] == "reconnected" }, "the socket was not cut: \(result.stdout)")
            let finals = lines.filter { $0["type"] == "final" }.compactMap { $0["text"]?.stringValue }
            #expect(finals.count == 1 && finals[0].hasPrefix("You said: \"before the final\""), "\(result.stdout)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["before the final"])
        }
    }

    /// A gateway that never comes back after the ack: the bounded reconnecting gives up, and the exit
    /// code (3) and the message name the run so the person can look it up later.
    @Test func sendWhoseGatewayNeverComesBackExitsThreeNamingTheRun() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.agent = ScriptedAgent(slowChunkDelayMs: 500)
        let gateway = try await TestGateway.start(configuration)
        let common = [
            "--url", gateway.url, "--token", "test-token", "--state-dir", CLIProcess.temporaryStateDirectory(),
        ]
        let sent = Task {
            try await CLIProcess.run(["send", "--json"] + common + ["slow, then gone"], timeout: .seconds(90))
        }
        let landed = await eventually(timeout: .seconds(20)) {
            await gateway.sentUserMessages(sessionKey: "main") == ["slow, then gone"]
        }
        #expect(landed)
        await gateway.stop()
        let result = try await sent.value
        #expect(result.status == 3, "stderr: \(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        let runIds = lines.compactMap { $0["runId"]?.stringValue }
        let runId = try #require(runIds.first, "stdout: \(result.stdout)")
        #expect(result.stderr.contains("run \(runId)"), "stderr: \(result.stderr)")
    }

    @Test func sendToARunThatNeverEndsGivesUpAfterTheIdleTimeoutAndStopsIt() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.agent = ScriptedAgent(slowChunkDelayMs: 30_000)
        try await CLITests.withGateway(configuration) { gateway, common in
            let result = try await CLIProcess.run(
                ["send", "--idle-timeout", "1.5"] + common + ["slow forever"], timeout: .seconds(60))
            #expect(result.status == 6, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("made no progress for 1.5 s"))
            let stored = await gateway.history(sessionKey: "main")
            #expect(stored.contains { $0["openclawAbort"]?["aborted"] == true }, "the run was stopped at the gateway")
        }
    }

    @Test func ctrlCOnSendAbortsTheRunAndExitsSeven() async throws {
        try await CLITests.withGateway { gateway, common in
            let send = try InteractiveProcess(["send"] + common + ["slow"], mode: .pipes)
            defer { send.killIfRunning() }
            send.endInput(mode: .pipes)  // nothing piped: `send` reads a pipe to its end, as `llm` does
            try await send.waitFor("word2 ")
            send.interrupt(mode: .pipes)
            let status = try await send.waitForExit()
            #expect(status == 7, "output: \(send.output)")
            let stored = await gateway.history(sessionKey: "main")
            let aborted = stored.contains { $0["openclawAbort"]?["aborted"] == true }
            #expect(aborted, "the run was aborted at the gateway")
        }
    }

    /// `history` and `sessions`: the request goes unanswered, the socket drops under it, and the
    /// command asks once more on a new one.
    @Test(arguments: [("history", "chat.history", "remember me"), ("sessions", "sessions.list", "main")])
    func aReadRetriesOnceWhenTheConnectionDropsUnderIt(command: String, method: String, shows: String) async throws {
        try await CLITests.withGateway { gateway, common in
            _ = try await CLIProcess.run(["send"] + common + ["remember me"])
            await gateway.setFaults(FaultPlan(ignoreRequests: [method]))
            let asked = await gateway.requestCount(method: method)
            let read = Task { try await CLIProcess.run([command] + common) }
            // Dropped once the request is there, unanswered: a fixed pause was too short for a command
            // started while the whole suite ran (it failed its handshake on the drop instead).
            let deadline = ContinuousClock.now + .seconds(20)
            while await gateway.requestCount(method: method) == asked {
                guard ContinuousClock.now < deadline else {
                    Issue.record("\(command) never asked for \(method)")
                    read.cancel()
                    return
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            await gateway.setFaults(FaultPlan())
            await gateway.dropAllConnections()
            let result = try await read.value
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains(shows), "\(result.stdout)")
        }
    }

    @Test func statusRetriesOnceWhenTheHandshakeDrops() async throws {
        try await CLITests.withGateway { gateway, common in
            await gateway.setFaults(FaultPlan(dropConnects: 1))
            let result = try await CLIProcess.run(["status"] + common)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("connected to"))
            // Twice in a row is not transient: reported.
            await gateway.setFaults(FaultPlan(dropConnects: 2))
            let twice = try await CLIProcess.run(["status"] + common)
            #expect(twice.status != 0)
        }
    }
}

/// `send` does not wait for the history page before its message leaves: a message never handed over has
/// nothing for history to settle.
@Suite("openclaw-chat send: nothing serial before the message")
struct SendOrderTests {
    @Test func theMessageLeavesWhileTheHistoryPageIsStillUnanswered() async throws {
        try await CLITests.withGateway { gateway, common in
            await gateway.setFaults(FaultPlan(ignoreRequests: ["chat.history"]))
            let send = Task { try await CLIProcess.run(["send"] + common + ["hello while history hangs"]) }
            // The history request is never answered (until its 15 s timeout); the message arrives anyway.
            let arrived = await eventually(timeout: .seconds(10)) {
                await gateway.sentUserMessages(sessionKey: "main") == ["hello while history hangs"]
            }
            #expect(arrived)
            let result = try await send.value
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("You said: \"hello while history hangs\""))
        }
    }
}
