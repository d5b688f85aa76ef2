import OpenClawProtocol

/// A connected node as the gateway knows it: what it declared in `connect`.
struct ConnectedNode: Sendable {
    let connectionId: Int
    let nodeId: String
    let connectParams: JSONValue
    let connectedAtMs: Int

    var commands: [String] { connectParams["commands"]?.stringArrayValue ?? [] }

    /// One `node.list` row.
    var json: JSONValue {
        let client = connectParams["client"] ?? [:]
        return .object(dropping: [
            ("nodeId", .string(nodeId)), ("displayName", .string(client["displayName"]?.nonEmptyStringValue)),
            ("platform", .string(client["platform"]?.nonEmptyStringValue)),
            ("version", .string(client["version"]?.nonEmptyStringValue)),
            ("deviceFamily", .string(client["deviceFamily"]?.nonEmptyStringValue)),
            ("clientId", .string(client["id"]?.stringValue)), ("clientMode", .string(client["mode"]?.stringValue)),
            ("caps", .strings(connectParams["caps"]?.stringArrayValue ?? [])), ("commands", .strings(commands)),
            ("permissions", connectParams["permissions"]), ("pathEnv", .string(connectParams["pathEnv"]?.stringValue)),
            ("paired", true), ("connected", true), ("connectedAtMs", .int(connectedAtMs)),
        ])
    }
}

/// An operator's `node.invoke` waiting for the node's answer.
struct PendingNodeInvoke: Sendable {
    let invokeId: String
    let operatorConnection: Int
    let operatorRequestId: String
    let nodeConnection: Int
    let nodeId: String
    let command: String
    var timer: Task<Void, Never>?
}

/// A `node.event` a node sent, kept for tests.
public struct NodeEventRecord: Sendable, Hashable {
    public let nodeId: String
    public let event: String
    /// `payload`, or `payloadJSON` parsed; nil when neither was readable.
    public let payload: JSONValue?
}

/// The gateway's node state: connected nodes, invokes in flight, and what nodes sent (for tests).
struct NodeRegistry: Sendable {
    var nodes: [Int: ConnectedNode] = [:]
    var pending: [String: PendingNodeInvoke] = [:]
    var events: [NodeEventRecord] = []
    /// Every `node.invoke.result` params object received, in order (also late and duplicate ones).
    var results: [JSONValue] = []
    /// `node.invoke.progress` chunks by invoke id, in arrival order (at most 1,000 per invoke), for tests.
    var progress: [String: [NodeProgressChunk]] = [:]
    /// Test fault: send every `node.invoke.request` twice with the same id (a gateway retrying).
    var duplicateRequests = false
    /// Off: `system.run` params go through ``SystemRunInvokeSanitizer`` as on a real gateway.
    var forwardsSystemRunVerbatim = false

    func node(id nodeId: String) -> ConnectedNode? {
        nodes.values.filter { $0.nodeId == nodeId }.max { $0.connectedAtMs < $1.connectedAtMs }
    }
}

extension ProtocolShapes {
    /// `NodeInvokeParams`; v4 adds the gateway-only `sessionKey` and `turnSource*` routing metadata
    /// (`nodes.ts` @ 42f6189).
    static func nodeInvokeParams(v4: Bool) -> ObjectShape {
        var fields: [String: ObjectShape.Field] = [
            "nodeId": .string(minLength: 1), "command": .string(minLength: 1), "params": .any,
            "timeoutMs": .integer(minimum: 0), "idempotencyKey": .string(minLength: 1),
        ]
        if v4 {
            fields["sessionKey"] = .string(minLength: 1)
            fields["turnSourceChannel"] = .string()
            fields["turnSourceTo"] = .string()
            fields["turnSourceAccountId"] = .string()
            fields["turnSourceThreadId"] = .stringOrNumber
        }
        return ObjectShape(fields, required: ["nodeId", "command", "idempotencyKey"])
    }

    static let nodeInvokeResultParams = ObjectShape(
        [
            "id": .string(minLength: 1), "nodeId": .string(minLength: 1), "ok": .boolean, "payload": .any,
            "payloadJSON": .string(),
            "error": .object(ObjectShape(["code": .string(minLength: 1), "message": .string(minLength: 1)])),
        ],
        required: ["id", "nodeId", "ok"]
    )

    static let nodeEventParams = ObjectShape(
        ["event": .string(minLength: 1), "payload": .any, "payloadJSON": .string()], required: ["event"])

    static let nodeDescribeParams = ObjectShape(["nodeId": .string(minLength: 1)], required: ["nodeId"])
}
