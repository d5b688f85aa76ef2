import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// `chat.send` `queueMode` on a busy session, with the semantics upstream documents: steer joins the
/// running turn, followup and collect wait for it, interrupt stops it.
@Suite("Test gateway: queue modes")
struct QueueModeTests {
    /// A reply slow enough for a second message to arrive while it runs.
    static let slow = ScriptedAgent.custom { _ in
        AgentScript(steps: [.say("first part "), .pause(ms: 600), .say("second part")], chunkDelayMs: 0)
    }

    static func send(
        _ client: RawGatewayClient, _ text: String, key: String, mode: String? = nil
    ) async throws -> JSONValue {
        var params: [String: JSONValue] = [
            "sessionKey": "main", "message": .string(text), "idempotencyKey": .string(key),
        ]
        if let mode { params["queueMode"] = .string(mode) }
        return try await client.request("chat.send", params: .object(params))
    }

    @Test func steerJoinsTheRunningTurnWithoutARunOfItsOwn() async throws {
        try await withValidatedTestGateway(.init(agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await Self.send(client, "start", key: "r1")
            let steered = try await Self.send(client, "also mention cats", key: "r2", mode: "steer")
            #expect(steered["payload"] == ["runId": "r2", "status": "started"])
            let steerEnd = try await client.terminalChat(runId: "r2")
            #expect(steerEnd["payload"]?["state"] == "final")
            #expect(steerEnd["payload"]?["message"] == nil)
            #expect(try await client.terminalChat(runId: "r1")["payload"]?["state"] == "final")
            #expect(await gateway.runCount() == 1)
            let roles = await gateway.history(sessionKey: "main").compactMap { $0["role"]?.stringValue }
            #expect(roles == ["user", "user", "assistant"])
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["start", "also mention cats"])
            await client.close()
        }
    }

    @Test func steerOnAnIdleSessionStartsATurn() async throws {
        try await withValidatedTestGateway(.init(agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await Self.send(client, "hello", key: "r1", mode: "steer")
            let end = try await client.terminalChat(runId: "r1")
            #expect(end["payload"]?["message"] != nil)
            #expect(await gateway.runCount() == 1)
            await client.close()
        }
    }

    @Test func followupsRunOneByOneAfterTheRunningTurn() async throws {
        try await withValidatedTestGateway(.init(agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await Self.send(client, "start", key: "r1")
            _ = try await Self.send(client, "next", key: "r2", mode: "followup")
            _ = try await Self.send(client, "after", key: "r3", mode: "followup")
            #expect(await gateway.runCount() == 1)
            _ = try await client.terminalChat(runId: "r3", timeout: .seconds(15))
            #expect(await gateway.runCount() == 3)
            let first = client.frames.firstIndex {
                $0["payload"]?["runId"] == "r1" && $0["payload"]?["state"] == "final"
            }
            let second = client.frames.firstIndex { $0["payload"]?["runId"] == "r2" && $0["event"] == "chat" }
            #expect(try #require(first) < #require(second))
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["start", "next", "after"])
            await client.close()
        }
    }

    @Test func collectedMessagesRunAsOneTurn() async throws {
        try await withValidatedTestGateway(.init(agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await Self.send(client, "start", key: "r1")
            _ = try await Self.send(client, "one", key: "r2", mode: "collect")
            _ = try await Self.send(client, "two", key: "r3", mode: "collect")
            #expect(try await client.terminalChat(runId: "r3")["payload"]?["message"] == nil)
            _ = try await client.terminalChat(runId: "r2", timeout: .seconds(15))
            #expect(await gateway.runCount() == 2)
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["start", "one\n\ntwo"])
            await client.close()
        }
    }

    @Test func interruptStopsTheRunningTurnAndStartsItsOwn() async throws {
        try await withValidatedTestGateway(.init(agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await Self.send(client, "start", key: "r1")
            _ = try await client.anyFrame("the first text") {
                $0["event"] == "chat" && $0["payload"]?["runId"] == "r1"
            }
            _ = try await Self.send(client, "never mind", key: "r2", mode: "interrupt")
            #expect(try await client.terminalChat(runId: "r1")["payload"]?["state"] == "aborted")
            #expect(try await client.terminalChat(runId: "r2")["payload"]?["state"] == "final")
            #expect(await gateway.runCount() == 2)
            await client.close()
        }
    }

    @Test func aQueuedTurnCanBeAbortedByItsRunId() async throws {
        try await withValidatedTestGateway(.init(agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await Self.send(client, "start", key: "r1")
            _ = try await Self.send(client, "later", key: "r2", mode: "followup")
            let aborted = try await client.request("chat.abort", params: ["sessionKey": "main", "runId": "r2"])
            #expect(aborted["payload"]?["runIds"] == ["r2"])
            #expect(try await client.terminalChat(runId: "r2")["payload"]?["state"] == "aborted")
            _ = try await client.terminalChat(runId: "r1")
            try await Task.sleep(for: .milliseconds(200))
            #expect(await gateway.runCount() == 1)
            await client.close()
        }
    }

    @Test func aGatewayFromBeforeQueueModesRefusesTheField() async throws {
        try await withValidatedTestGateway(.init(agent: Self.slow, quirks: .noQueueMode)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let refused = try await Self.send(client, "start", key: "r1", mode: "steer")
            #expect(refused["error"]?["code"] == "INVALID_REQUEST")
            #expect(refused["error"]?["message"]?.stringValue?.contains("'queueMode'") == true)
            #expect(await gateway.runCount() == 0)
            await client.close()
        }
    }
}
