import OpenClawProtocol

/// The params of the `node.invoke.result` request: the node's one answer to one invoke.
///
/// Strict: exactly the closed schema's fields (`id`, `nodeId`, `ok`, and `payloadJSON` or `error`).
/// The payload travels as a `payloadJSON` string, as the official nodes send it.
public struct NodeInvokeResult: Sendable, Hashable {
    public var id: String
    public var nodeId: String
    public var outcome: Result<JSONValue, NodeInvokeError>

    public init(id: String, nodeId: String, outcome: Result<JSONValue, NodeInvokeError>) {
        self.id = id
        self.nodeId = nodeId
        self.outcome = outcome
    }

    public var ok: Bool {
        if case .success = outcome { return true }
        return false
    }

    public var json: JSONValue {
        var members: [(String, JSONValue?)] = [
            ("id", .string(id)), ("nodeId", .string(nodeId.isEmpty ? "unknown" : nodeId)), ("ok", .bool(ok)),
        ]
        switch outcome {
        case .success(let payload): members.append(("payloadJSON", .string(JSONSerializer.string(payload))))
        case .failure(let error): members.append(("error", error.json))
        }
        return .object(dropping: members)
    }
}
