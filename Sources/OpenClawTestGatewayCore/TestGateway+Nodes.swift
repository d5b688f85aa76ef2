import OpenClawProtocol

/// Inspection and faults for node tests.
extension TestGateway {
    /// The node ids of the connected nodes.
    public func connectedNodes() async -> [String] { await hub.connectedNodeIds() }

    /// Every `node.event` received, in order.
    public func nodeEvents() async -> [NodeEventRecord] { await hub.nodeEventLog() }

    /// Every `node.invoke.result` params object received, in order (late and repeated ones too).
    public func nodeInvokeResults() async -> [JSONValue] { await hub.nodeInvokeResultLog() }

    /// Sends every `node.invoke.request` twice with the same id, as a gateway retrying would.
    public func setDuplicateNodeInvokes(_ on: Bool) async { await hub.setDuplicateNodeInvokes(on) }

    /// Forwards an operator's `system.run` params as written, approval claims included: a buggy or
    /// third-party gateway, against which the node's own checks must hold.
    public func setForwardsSystemRunVerbatim(_ on: Bool) async { await hub.setForwardsSystemRunVerbatim(on) }

    /// The invokes waiting for a node's answer.
    public func pendingNodeInvokes() async -> [String] { await hub.pendingNodeInvokeIds() }

    /// Gives up on an invoke as an operator would: the operator's call stays unanswered (until its own
    /// timeout) and the node gets `node.invoke.cancel`.
    public func cancelNodeInvoke(_ invokeId: String) async { await hub.cancelNodeInvoke(invokeId) }
}
