/// The params of one gateway method: its name and the JSON the gateway's closed schema accepts.
///
/// Conforming types encode strictly: only fields both the v3 and the v4 schema define, and never a
/// `null` or an empty string for an absent optional, because both gateways reject unknown or
/// malformed params (`additionalProperties: false`) instead of ignoring them.
public protocol GatewayMethodParams: Sendable {
    /// The `method` of the request frame, e.g. `chat.send`.
    static var method: String { get }
    /// The `params` of the request frame.
    var json: JSONValue { get }
}

extension GatewayMethodParams {
    /// A request frame carrying these params under the caller's request id.
    public func requestFrame(id: String) -> RequestFrame {
        RequestFrame(id: id, method: Self.method, params: json)
    }
}

/// Names of gateway methods: those the chat engine calls, the handshake's, and the pairing and node
/// methods the test gateway serves. One constant per name, so a client and the test gateway decide by
/// the same value instead of each spelling it. (Exec-approval methods are in ``ExecApprovalNames``.)
public enum GatewayMethodName {
    /// The first request on every socket; anything else before it is refused.
    public static let connect = "connect"
    public static let chatSend = "chat.send"
    public static let chatHistory = "chat.history"
    public static let chatAbort = "chat.abort"
    public static let sessionsList = "sessions.list"
    public static let modelsList = "models.list"
    public static let sessionsPatch = "sessions.patch"
    public static let sessionsReset = "sessions.reset"
    public static let agentIdentity = "agent.identity.get"
    public static let health = "health"
    public static let devicePairList = "device.pair.list"
    public static let devicePairApprove = "device.pair.approve"
    public static let nodeList = "node.list"
    public static let nodeDescribe = "node.describe"
    public static let nodeInvoke = "node.invoke"
    /// A node's answer to a `node.invoke.request` event.
    public static let nodeInvokeResult = "node.invoke.result"
    /// An event a node reports to the gateway.
    public static let nodeEvent = "node.event"
}

extension Int {
    /// Nil below `minimum`: a closed schema rejects out-of-range integers rather than clamping them.
    func nilIfBelow(_ minimum: Int) -> Int? { self >= minimum ? self : nil }
}
