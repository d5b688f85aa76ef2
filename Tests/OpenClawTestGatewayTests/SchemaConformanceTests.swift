import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// Records everything the gateway emits in a v3 and a v4 session and validates each frame, and each
/// known payload, against the shared schema of that version. The gateway is fixed to fit the schema,
/// never the reverse.
@Suite("Test gateway frames conform to the shared schemas")
struct SchemaConformanceTests {
    @Test(arguments: [3, 4])
    func everyEmittedFrameValidates(version: Int) async throws {
        let validator = try SharedSchemas.validator(forProtocol: version)
        let agent = ScriptedAgent(chunkSize: 12, chunkDelayMs: 1, slowChunkDelayMs: 150, toolDurationMs: 5)
        let frames = try await withTestGateway(.init(protocolNumber: version, tickIntervalMs: 50, agent: agent)) {
            gateway in
            var helper = HandshakeHelper()
            helper.caps = ["tool-events"]
            let (client, _) = try await helper.open(gateway.url)
            _ = try await client.event("tick")
            for (index, message) in ["hello", "use a tool", "please shrink", "please fail", "stay silent"].enumerated()
            {
                _ = try await client.chatSend(message, key: "k\(index)")
                _ = try await client.terminalChat(runId: "k\(index)")
            }
            _ = try await client.chatSend("slow please", key: "slow")
            _ = try await client.event("chat") { $0["payload"]?["runId"] == "slow" }
            // History while the run streams: v4 adds `inFlightRun`.
            _ = try await client.request("chat.history", params: ["sessionKey": "main"])
            _ = try await client.request("chat.abort", params: ["sessionKey": "main", "runId": "slow"])
            _ = try await client.terminalChat(runId: "slow")
            _ = try await client.request("chat.history", params: ["sessionKey": "main"])
            _ = try await client.request("sessions.list", params: [:])
            _ = try await client.request("models.list", params: [:])
            _ = try await client.request("agent.identity.get", params: [:])
            _ = try await client.request("does.not.exist")
            await gateway.shutdown(restartExpectedMs: 100)
            _ = try await client.closeCode()
            return client.frames
        }

        var checked: [String: Int] = [:]
        for frame in frames {
            for problem in Self.problems(in: frame, version: version, validator: validator, checked: &checked) {
                Issue.record(
                    "v\(version) \(frame["event"]?.stringValue ?? frame["type"]?.stringValue ?? "?"): \(problem)\n\(frame)"
                )
            }
        }
        for name in ["HelloOk", "ChatEvent", "AgentEvent", "TickEvent", "ShutdownEvent", "EventFrame", "ResponseFrame"]
        {
            #expect(checked[name, default: 0] > 0, "no \(name) was validated in v\(version)")
        }
        if version == 3 {
            for name in ["ChatHistoryMessages", "ModelsListResult", "AgentIdentityResult"] {
                #expect(checked[name, default: 0] > 0, "no \(name) was validated in v3")
            }
            #expect(checked["InFlightRun", default: 0] == 0, "v3 has no inFlightRun")
        } else {
            #expect(checked["InFlightRun", default: 0] > 0, "no inFlightRun was checked in v4")
        }
    }

    private static func problems(
        in frame: JSONValue, version: Int, validator: JSONSchemaValidator, checked: inout [String: Int]
    ) -> [String] {
        func validate(_ value: JSONValue, _ definition: String) -> [String] {
            checked[definition, default: 0] += 1
            return validator.validate(value, definition: definition).map { "\(definition): \($0)" }
        }
        var problems: [String] = []
        switch frame["type"]?.stringValue {
        case "event":
            problems += validate(frame, "EventFrame")
            let payload = frame["payload"] ?? .null
            switch frame["event"]?.stringValue {
            case "tick": problems += validate(payload, "TickEvent")
            case "shutdown": problems += validate(payload, "ShutdownEvent")
            case "chat": problems += validate(payload, "ChatEvent")
            case "agent":
                // Live agent frames carry `sessionKey` beyond the named schema (see the v4 schema note).
                guard case .object(var members) = payload else { return problems + ["agent payload is not an object"] }
                members["sessionKey"] = nil
                problems += validate(.object(members), "AgentEvent")
            case "connect.challenge" where version >= 4: problems += validate(payload, "ConnectChallengeEvent")
            case "device.pair.requested" where version == 3: problems += validate(payload, "DevicePairRequestedEvent")
            default: break
            }
        case "res":
            problems += validate(frame, "ResponseFrame")
            if let error = frame["error"] { problems += validate(error, "ErrorShape") }
            let payload = frame["payload"]
            if payload?["type"] == "hello-ok", let payload { problems += validate(payload, "HelloOk") }
            if version == 3, let payload {
                if payload["models"] != nil { problems += validate(payload, "ModelsListResult") }
                if payload["agentId"] != nil { problems += validate(payload, "AgentIdentityResult") }
                if payload["messages"] != nil { checked["ChatHistoryMessages", default: 0] += 1 }
            }
            if let flight = payload?["inFlightRun"] {
                checked["InFlightRun", default: 0] += 1
                problems += inFlightRunProblems(flight)
            }
        default:
            problems.append("frame of unknown type")
        }
        return problems
    }

    /// The shared schemas have no definition for the v4 `chat.history` result, so `inFlightRun` is
    /// checked against the v4 reference by hand: a closed `{runId, text, plan?}`.
    private static func inFlightRunProblems(_ flight: JSONValue) -> [String] {
        guard case .object(let members) = flight else { return ["inFlightRun is not an object"] }
        var problems: [String] = []
        if members["runId"]?.nonEmptyStringValue == nil {
            problems.append("inFlightRun.runId is not a non-empty string")
        }
        if members["text"]?.stringValue == nil { problems.append("inFlightRun.text is not a string") }
        for key in members.keys where !["runId", "text", "plan"].contains(key) {
            problems.append("inFlightRun has an unknown field \(key)")
        }
        return problems
    }
}
