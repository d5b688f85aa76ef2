import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The fields each implemented method accepts, checked against upstream's definitions in both
/// directions: a field upstream accepts must pass schema validation here, one it refuses must not.
/// Sources: `v3-generated-2026-04-12.schema.json` for v3; upstream's current
/// `packages/gateway-protocol/src/schema/*.ts` (`Tests/Fixtures/protocol/README.md`) and
/// `docs/gateway/protocol.md` for v4.
@Suite("Test gateway: accepted fields match upstream")
struct UpstreamFieldTableTests {
    struct Row: Sendable, CustomStringConvertible {
        var method: String
        var params: JSONValue
        var v3: Bool
        var v4: Bool
        var description: String { "\(method) \(params)" }
    }

    static let rows: [Row] = [
        // sessions.patch: what a third-party client sends.
        Row(method: "sessions.patch", params: ["key": "main", "sendPolicy": "deny"], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "sendPolicy": .null], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "sendPolicy": "maybe"], v3: false, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "groupActivation": "always"], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "responseUsage": "tokens"], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "responseUsage": "all"], v3: false, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "traceLevel": "on"], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "elevatedLevel": "on"], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "execHost": "gateway"], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "execAsk": .null], v3: true, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "fastMode": "auto"], v3: false, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "pinned": true], v3: false, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "archived": false], v3: false, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "category": "Work"], v3: false, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "contextWindow": .null], v3: false, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "spawnDepth": 1], v3: true, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "subagentRole": "leaf"], v3: true, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "spawnToolPolicy": .null], v3: false, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "label": ""], v3: false, v4: false),
        // sessions.list and sessions.reset.
        Row(method: "sessions.list", params: ["offset": 0, "archived": true], v3: false, v4: true),
        Row(method: "sessions.list", params: ["label": ""], v3: false, v4: false),
        Row(method: "sessions.list", params: ["limit": 0], v3: false, v4: false),
        Row(method: "sessions.reset", params: ["key": "main", "agentId": "main"], v3: false, v4: true),
        Row(method: "sessions.reset", params: ["key": "main", "reason": "wipe"], v3: false, v4: false),
        // chat.send's late-v4 fields.
        Row(method: "chat.send", params: chatSend(["replyToId": "m1"]), v3: false, v4: true),
        Row(method: "chat.send", params: chatSend(["expectedLeafEntryId": .null]), v3: false, v4: true),
        Row(method: "chat.send", params: chatSend(["expectedLeafEntryId": ""]), v3: false, v4: false),
        Row(method: "chat.send", params: chatSend(["queueMode": "steer"]), v3: false, v4: true),
        Row(method: "chat.send", params: chatSend(["queueMode": "later"]), v3: false, v4: false),
        Row(method: "chat.send", params: chatSend(["clarification": [:]]), v3: false, v4: false),
        // Current v4 additions (Tests/Fixtures/protocol/README.md), and their bounds.
        Row(
            method: "chat.send", params: chatSend(["mentions": [["profileId": "p1", "start": 0, "end": 2]]]), v3: false,
            v4: true),
        Row(method: "chat.send", params: chatSend(["mentions": [["start": 0]]]), v3: false, v4: false),
        // A mention is a person or everyone (upstream's anyOf), never both or neither; at most 10.
        Row(
            method: "chat.send", params: chatSend(["mentions": [["kind": "everyone", "start": 0, "end": 2]]]),
            v3: false, v4: true),
        Row(
            method: "chat.send",
            params: chatSend(["mentions": [["profileId": "p1", "kind": "everyone", "start": 0, "end": 2]]]),
            v3: false, v4: false),
        Row(method: "chat.send", params: chatSend(["mentions": [["start": 0, "end": 2]]]), v3: false, v4: false),
        Row(method: "chat.send", params: chatSend(["mentions": mentions(10)]), v3: false, v4: true),
        Row(method: "chat.send", params: chatSend(["mentions": mentions(11)]), v3: false, v4: false),
        // `health` and `sessions.subscribe` validate no params upstream: nothing is refused.
        Row(method: "health", params: ["probe": "yes", "extra": 1], v3: true, v4: true),
        Row(method: "sessions.subscribe", params: ["extra": 1], v3: true, v4: true),
        Row(method: "chat.send", params: chatSend(["expectedPermissionMode": "guarded"]), v3: false, v4: true),
        Row(method: "chat.send", params: chatSend(["expectedToolOverrides": ["webSearch": true]]), v3: false, v4: true),
        Row(method: "chat.history", params: ["sessionKey": "main", "inputRunIds": ["r1"]], v3: false, v4: true),
        Row(
            method: "chat.history", params: ["sessionKey": "main", "inputRunIds": ["r1", "r1"]], v3: false, v4: false),
        Row(method: "models.list", params: ["view": "configured", "agentId": "main"], v3: false, v4: true),
        Row(method: "models.list", params: ["refresh": true], v3: false, v4: true),
        Row(method: "models.list", params: ["preparedOnly": true, "refresh": true], v3: false, v4: false),
        Row(method: "models.list", params: ["view": "everything"], v3: false, v4: false),
        Row(method: "sessions.list", params: ["sortBy": "activity", "archived": "all"], v3: false, v4: true),
        Row(method: "sessions.list", params: ["activityPulseBoundaries": [1, 2]], v3: false, v4: true),
        Row(method: "sessions.list", params: ["activityPulseBoundaries": [1]], v3: false, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "permissionMode": "guarded"], v3: false, v4: true),
        Row(
            method: "sessions.patch", params: ["key": "main", "toolOverrides": ["webSearch": false]], v3: false,
            v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "toolOverrides": ["web": true]], v3: false, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "threadId": .null], v3: false, v4: true),
        Row(method: "sessions.patch", params: ["key": "main", "threadId": "t1"], v3: false, v4: false),
        Row(method: "sessions.patch", params: ["key": "main", "ttlMinutes": 121], v3: false, v4: false),
        Row(
            method: "exec.approval.resolve", params: ["id": "a1", "decision": "deny", "grantExpiresInDays": 30],
            v3: false, v4: true),
        Row(
            method: "exec.approval.resolve",
            params: ["id": "a1", "decision": "deny", "reviewer": ["channel": "telegram", "accountId": "a"]],
            v3: false, v4: false),
        Row(
            method: "node.invoke",
            params: ["nodeId": "n1", "command": "system.run", "idempotencyKey": "k1", "sessionKey": "main"],
            v3: false, v4: true),
    ]

    /// `count` person mentions of one character each.
    static func mentions(_ count: Int) -> JSONValue {
        .array((0..<count).map { ["profileId": .string("p\($0)"), "start": .int($0), "end": .int($0 + 1)] })
    }

    static func chatSend(_ extra: [String: JSONValue]) -> JSONValue {
        var members: [String: JSONValue] = ["sessionKey": "table", "message": "hi", "idempotencyKey": "t-1"]
        members.merge(extra) { _, new in new }
        return .object(members)
    }

    @Test(arguments: [3, 4])
    func eachRowIsJudgedAsUpstreamJudgesIt(protocolNumber: Int) async throws {
        var helper = HandshakeHelper()
        helper.scopes = [OperatorScope.admin]
        let agent = ScriptedAgent.custom { _ in AgentScript(steps: [.say("ok")], chunkDelayMs: 0) }
        try await withTestGateway(.init(protocolNumber: protocolNumber, agent: agent)) { gateway in
            let (client, _) = try await helper.open(gateway.url)
            for row in Self.rows {
                let response = try await client.request(row.method, params: row.params)
                let message = response["error"]?["message"]?.stringValue ?? ""
                let schemaRefused = message.hasPrefix("invalid \(row.method) params")
                let expected = protocolNumber >= 4 ? row.v4 : row.v3
                #expect(schemaRefused != expected, "v\(protocolNumber) \(row): \(response)")
                if schemaRefused {
                    // Upstream's shape for a params refusal: INVALID_REQUEST, the validator's message.
                    #expect(response["error"]?["code"] == "INVALID_REQUEST", "v\(protocolNumber) \(row): \(response)")
                }
            }
            await client.close()
        }
    }
    /// Minimal valid params of each method the gateway validates; each gets an unknown field added.
    static func minimalParams(v4: Bool) -> [(String, JSONValue)] {
        var rows: [(String, JSONValue)] = [
            ("chat.send", chatSend([:])), ("chat.history", ["sessionKey": "main"]),
            ("chat.abort", ["sessionKey": "main"]), ("sessions.list", [:]), ("sessions.patch", ["key": "main"]),
            ("sessions.reset", ["key": "main"]), ("models.list", [:]), ("agent.identity.get", [:]),
            ("commands.list", [:]), ("exec.approval.list", [:]), ("exec.approval.get", ["id": "a1"]),
            ("exec.approval.resolve", ["id": "a1", "decision": "deny"]), ("device.pair.list", [:]),
            ("node.list", [:]),
        ]
        if v4 {
            rows += [
                ("chat.message.get", ["sessionKey": "main", "messageId": "m1"]), ("approval.get", ["id": "a1"]),
                ("approval.resolve", ["id": "a1", "kind": "exec", "decision": "deny"]), ("approval.history", [:]),
                ("artifacts.download", ["artifactId": "x1"]), ("question.list", [:]), ("question.get", ["id": "q1"]),
            ]
        }
        return rows
    }

    @Test(arguments: [3, 4])
    func anUnknownFieldIsRefusedAsUpstreamRefusesIt(protocolNumber: Int) async throws {
        var helper = HandshakeHelper()
        helper.scopes = [OperatorScope.admin]
        try await withTestGateway(.init(protocolNumber: protocolNumber)) { gateway in
            let (client, _) = try await helper.open(gateway.url)
            for (method, params) in Self.minimalParams(v4: protocolNumber >= 4) {
                guard case .object(var members) = params else { continue }
                members["bogusField"] = 1
                let response = try await client.request(method, params: .object(members))
                #expect(response["error"]?["code"] == "INVALID_REQUEST", "v\(protocolNumber) \(method): \(response)")
                let message = response["error"]?["message"]?.stringValue ?? ""
                #expect(
                    message.hasPrefix("invalid \(method) params")
                        && message.contains("unexpected property 'bogusField'"),
                    "v\(protocolNumber) \(method): \(message)")
            }
            await client.close()
        }
    }
}
