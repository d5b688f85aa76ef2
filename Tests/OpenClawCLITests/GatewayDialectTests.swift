import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The terminal client against each gateway dialect the test gateway can speak, over a real socket:
/// every command a person uses works and shows each reply once.
@Suite("openclaw-chat against other gateway dialects")
struct GatewayDialectTests {
    /// Every quirk on its own. Ticks every 1.5 s (the reference is 30 s), so the interactive session,
    /// which waits 1.8 s in each of two replies, lives through some; shorter intervals make a loaded
    /// machine miss two ticks in a row and drop the connection (seen at 1 s with all seventeen chats of
    /// one test and their gateways sharing 2 cores under the whole suite: no frame, not even a pong, for
    /// 2 s). A gateway that never ticks gets a long
    /// interval here; ``aGatewayThatNeverTicksKeepsTheChatOnOneConnection()`` gives it a short one, which
    /// the liveness probe rides out.
    static let dialects: [GatewayQuirks] = GatewayQuirks.named.map(\.quirk)

    static func configuration(_ quirks: GatewayQuirks) -> TestGatewayConfiguration {
        var configuration = TestGatewayConfiguration(
            tickIntervalMs: quirks.contains(.noTicks) ? 20_000 : 1500,
            agent: .custom { message in
                guard message.contains("wait") else { return ScriptedAgent().script(for: message) }
                return AgentScript(steps: [.say("Reply to \(message): "), .pause(ms: 1800), .say("done.")])
            }
        )
        configuration.quirks = quirks
        return configuration
    }

    @Test(arguments: dialects)
    func oneShotCommandsWork(quirks: GatewayQuirks) async throws {
        try await CLITests.withGateway(Self.configuration(quirks)) { gateway, common in
            let sent = try await CLIProcess.run(["send"] + common + ["hello dialect"])
            #expect(sent.status == 0, "\(quirks.names) stderr: \(sent.stderr)")
            #expect(sent.stdout.occurrences(of: "You said: \"hello dialect\"") == 1, "\(quirks.names): \(sent.stdout)")

            let streamed = try await CLIProcess.run(["send", "--json"] + common + ["please use a tool"])
            #expect(streamed.status == 0, "\(quirks.names) stderr: \(streamed.stderr)")
            let objects = try streamed.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
            let finals = objects.filter { $0["type"] == "final" }
            #expect(finals.count == 1)
            let deltas = objects.filter { $0["type"] == "delta" }.compactMap { $0["text"]?.stringValue }.joined()
            #expect(finals.first?["text"]?.stringValue == deltas, "\(quirks.names): \(streamed.stdout)")
            #expect(deltas == "The service is healthy: the check returned status ok.")

            let history = try await CLIProcess.run(["history", "--json"] + common)
            #expect(history.status == 0, "\(quirks.names) stderr: \(history.stderr)")
            let messages = try history.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
            #expect(messages.first?["text"] == "hello dialect")
            #expect(messages.last?["role"] == "assistant")
            #expect(messages.allSatisfy { ($0["timestamp"]?.intValue ?? 0) > 1_700_000_000_000 })

            let sessions = try await CLIProcess.run(["sessions", "--json"] + common)
            #expect(sessions.status == 0, "\(quirks.names) stderr: \(sessions.stderr)")
            let rows = try sessions.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
            #expect(rows.contains { $0["key"] == "agent:main:main" })
            #expect(rows.allSatisfy { ($0["updatedAt"]?.intValue ?? 0) > 1_700_000_000_000 })

            let status = try await CLIProcess.run(["status", "--json"] + common)
            #expect(status.status == 0, "\(quirks.names) stderr: \(status.stderr)")
            let object = try JSONParser().parse(status.stdout)
            #expect(object["protocol"] == 4)
            if quirks.contains(.noServerInHello) {
                #expect(object["serverVersion"] == "unknown")
                #expect(object["notAdvertised"] == ["server"])
                let text = try await CLIProcess.run(["status"] + common)
                #expect(text.stdout.contains("server version  unknown"), "\(text.stdout)")
                #expect(text.stdout.contains("unknown         server (not sent by the gateway; defaults used)"))
            } else {
                #expect(object["serverVersion"] == .string(gateway.configuration.serverVersion))
                #expect(object["notAdvertised"] == nil)
            }

            let doctor = try await CLIProcess.run(["doctor"] + common)
            #expect(doctor.status == 0, "\(quirks.names) stdout: \(doctor.stdout) stderr: \(doctor.stderr)")
            #expect(doctor.stdout.contains("✓ Challenge"))
            #expect(
                await gateway.sentUserMessages(sessionKey: "main").prefix(2) == ["hello dialect", "please use a tool"])
        }
    }

    @Test(arguments: dialects)
    func theInteractiveChatShowsEachReplyOnce(quirks: GatewayQuirks) async throws {
        try await CLITests.withGateway(Self.configuration(quirks)) { gateway, common in
            let result = try await CLIProcess.run(
                ["chat"] + common, stdin: "first, wait\nsecond, wait\nplease use a tool\n")
            #expect(result.status == 0, "\(quirks.names) stderr: \(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(result.stdout.occurrences(of: "Reply to first, wait: done.") == 1, "\(quirks.names): \(output)")
            #expect(result.stdout.occurrences(of: "Reply to second, wait: done.") == 1, "\(quirks.names): \(output)")
            #expect(result.stdout.occurrences(of: "The service is healthy") == 1, "\(quirks.names): \(output)")
            #expect(!output.contains("offline"), "\(quirks.names): \(output)")
            #expect(!output.contains("Connection lost"), "\(quirks.names): \(output)")
            #expect(await gateway.sentUserMessages(sessionKey: "main").count == 3)
        }
    }

    /// A gateway that advertises a tick every 3 s and never sends one: the interactive chat lives through
    /// a reply that pauses 10 s (the watch of old dropped the socket after two silent intervals, 6 s) on
    /// its first connection, which the liveness probe's pings keep. 3 s, not 1: a pong on a loaded
    /// machine has been seen to take over a second.
    @Test func aGatewayThatNeverTicksKeepsTheChatOnOneConnection() async throws {
        var configuration = TestGatewayConfiguration(
            tickIntervalMs: 3_000,
            agent: .custom { message in
                AgentScript(steps: [.say("Reply to \(message): "), .pause(ms: 10_000), .say("done.")])
            }
        )
        configuration.quirks = .noTicks
        try await CLITests.withGateway(configuration) { gateway, common in
            let result = try await CLIProcess.run(["chat"] + common, stdin: "a long one\n", timeout: .seconds(90))
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(result.stdout.occurrences(of: "Reply to a long one: done.") == 1, "\(output)")
            #expect(!output.contains("offline") && !output.contains("Connection lost"), "\(output)")
            #expect(await gateway.ticksSent() == 0)
            let connects = await gateway.receivedConnectParams().count
            #expect(connects == 1, "the chat connected \(connects) times: \(output)")
        }
    }

    @Test func aRefusalOnASocketLeftOpenReadsAsOnAClosedOne() async throws {
        var outputs: [CLIProcess.Result] = []
        for quirks in [GatewayQuirks(), .keepSocketAfterRefusal] {
            try await CLITests.withGateway(Self.configuration(quirks)) { _, common in
                var arguments = common
                arguments[3] = "a-wrong-token"
                outputs.append(try await CLIProcess.run(["send"] + arguments + ["hi"]))
            }
        }
        #expect(outputs.map(\.status) == [4, 4])
        #expect(outputs[0].stderr.contains("refused the token"))
        #expect(outputs[1].stderr == outputs[0].stderr)
    }

    @Test func theGatewayCommandTakesQuirksByName() async throws {
        let result = try await CLIProcess.run(["gateway", "--quirk", "no-such-quirk"])
        #expect(result.status == 2, "usage errors exit 2, as the README says")
        #expect(result.stderr.contains("no-challenge-ts"))
        for (name, quirk) in GatewayQuirks.named {
            #expect(GatewayQuirks(name: name) == quirk)
        }
    }
}

extension String {
    func occurrences(of needle: String) -> Int {
        components(separatedBy: needle).count - 1
    }
}
