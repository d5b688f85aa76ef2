extension GatewayMethodName {
    /// Summer 2026: a node's ordered output chunks for an invoke still running (node role only).
    public static let nodeInvokeProgress = "node.invoke.progress"
}
