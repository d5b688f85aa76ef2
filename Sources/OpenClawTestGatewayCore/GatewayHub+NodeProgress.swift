import OpenClawProtocol

/// `node.invoke.progress` from a node (upstream `NodeInvokeProgressParamsSchema`): kept per invoke for
/// tests. Only the node the invoke was sent to may report on it, and only while it runs; a chunk for
/// anything else is answered but dropped, as a late result is. How upstream hands chunks on to the
/// caller is not documented, so the test gateway does not forward them.
extension GatewayHub {
    static let maxProgressChunksPerInvoke = 1_000

    func handleNodeInvokeProgress(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.nodeInvokeProgressParams, from: id),
            let invokeId = params["invokeId"]?.stringValue, let seq = params["seq"]?.intValue,
            let chunk = params["chunk"]?.stringValue
        else { return }
        guard let invoke = nodes.pending[invokeId], invoke.nodeConnection == id,
            params["nodeId"]?.stringValue == invoke.nodeId
        else {
            respond(to: id, requestId: request.id, payload: ["ok": true, "ignored": true])
            return
        }
        if nodes.progress[invokeId, default: []].count < Self.maxProgressChunksPerInvoke {
            nodes.progress[invokeId, default: []].append(NodeProgressChunk(seq: seq, chunk: chunk))
        }
        respond(to: id, requestId: request.id, payload: ["ok": true])
    }

    func nodeProgressLog() -> [String: [NodeProgressChunk]] { nodes.progress }
}

extension TestGateway {
    /// The `node.invoke.progress` chunks nodes sent, by invoke id, in arrival order.
    public func nodeInvokeProgress() async -> [String: [NodeProgressChunk]] { await hub.nodeProgressLog() }
}
