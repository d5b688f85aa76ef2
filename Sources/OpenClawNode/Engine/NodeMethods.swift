import OpenClawProtocol

/// What a node sends the gateway, as typed calls (``GatewayMethod``): only a `role: node` connection
/// may call these.
extension NodeInvokeResult: GatewayMethod {
    public typealias Response = GatewayAcknowledgement
    public static let method = NodeMethod.invokeResult
    public static let access = GatewayMethodAccess.node
}

extension NodeEvent: GatewayMethod {
    public typealias Response = GatewayAcknowledgement
    public static let method = NodeMethod.event
    public static let access = GatewayMethodAccess.node
}

/// `node.invoke.progress`: one ordered chunk of a running invoke's output (``InvokeProgress``).
public struct NodeInvokeProgressParams: GatewayMethod, Hashable {
    public typealias Response = GatewayAcknowledgement
    public static let method = NodeMethod.invokeProgress
    public static let access = GatewayMethodAccess.node
    public var invokeId: String
    public var nodeId: String
    public var seq: Int
    public var chunk: String

    public init(invokeId: String, nodeId: String, seq: Int, chunk: String) {
        self.invokeId = invokeId
        self.nodeId = nodeId
        self.seq = seq
        self.chunk = chunk
    }

    public var json: JSONValue {
        ["invokeId": .string(invokeId), "nodeId": .string(nodeId), "seq": .int(seq), "chunk": .string(chunk)]
    }
}
