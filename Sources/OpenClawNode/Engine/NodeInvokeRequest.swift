import OpenClawProtocol

/// The `node.invoke.request` event: the gateway asks this node to run one command.
///
/// Liberal in what it accepts: params arrive as a `paramsJSON` string (upstream's form, `null` when
/// there are none) or as a `params` object; a `paramsJSON` that does not parse is a bad request for
/// that invoke, answered as such, never a crash.
public struct NodeInvokeRequest: Sendable, Hashable {
    public var id: String
    public var nodeId: String
    public var command: String
    /// The parsed params; nil when the gateway sent none.
    public var params: JSONValue?
    /// How long the gateway waits for the answer; the node stops working on it after that.
    public var timeoutMs: Int?
    public var idempotencyKey: String?
    /// Set when `paramsJSON` was present but unreadable: the invoke is answered `INVALID_REQUEST`.
    public var paramsProblem: String?

    public init(
        id: String, nodeId: String, command: String, params: JSONValue? = nil, timeoutMs: Int? = nil,
        idempotencyKey: String? = nil
    ) {
        self.id = id
        self.nodeId = nodeId
        self.command = command
        self.params = params
        self.timeoutMs = timeoutMs
        self.idempotencyKey = idempotencyKey
    }

    /// The largest `paramsJSON` read; a bigger one is refused as a bad request.
    public static let maxParamsBytes = 4 * 1024 * 1024

    /// Nil when the payload lacks an `id` or `command` (nothing could be answered).
    public init?(payload: JSONValue?) {
        guard let payload, let id = payload["id"]?.nonEmptyStringValue,
            let command = payload["command"]?.nonEmptyStringValue
        else { return nil }
        self.init(
            id: id, nodeId: payload["nodeId"]?.stringValue ?? "", command: command,
            timeoutMs: payload["timeoutMs"]?.intValue.flatMap { $0 > 0 ? $0 : nil },
            idempotencyKey: payload["idempotencyKey"]?.nonEmptyStringValue)
        if let text = payload["paramsJSON"]?.stringValue {
            if text.utf8.count > Self.maxParamsBytes {
                paramsProblem = "paramsJSON is larger than \(Self.maxParamsBytes) bytes"
            } else {
                do {
                    params = try JSONParser(maxDepth: 64).parse(text)
                } catch {
                    paramsProblem = "paramsJSON is not JSON (\(error))"
                }
            }
        } else if let object = payload["params"], !object.isNull {
            params = object
        }
    }
}

/// The `node.invoke.cancel` event: the gateway no longer wants the answer to `invokeId`.
public struct NodeInvokeCancel: Sendable, Hashable {
    public var invokeId: String
    public var nodeId: String

    public init?(payload: JSONValue?) {
        guard let invokeId = payload?["invokeId"]?.nonEmptyStringValue ?? payload?["id"]?.nonEmptyStringValue
        else { return nil }
        self.invokeId = invokeId
        self.nodeId = payload?["nodeId"]?.stringValue ?? ""
    }
}

/// Methods a node calls: the names of ``GatewayMethodName``, which the test gateway serves by.
public enum NodeMethod {
    public static let invokeResult = GatewayMethodName.nodeInvokeResult
    public static let event = GatewayMethodName.nodeEvent
    /// Summer 2026: ordered output chunks of a running invoke (``InvokeProgress``).
    public static let invokeProgress = GatewayMethodName.nodeInvokeProgress
}
