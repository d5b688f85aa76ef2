import OpenClawProtocol

/// `node.invoke.progress` from a node (upstream `NodeInvokeProgressParamsSchema`): kept per invoke for
/// tests. As upstream's handler (`server-methods/nodes.handlers.invoke-progress.ts`): a `nodeId` other
/// than the caller's is refused, so is a chunk over 16 KiB of UTF-8; a chunk for an invoke not running
/// on this node is answered `ignored: true` and dropped; every answer is `{ok: true, ignored}`. How
/// upstream hands chunks on to the caller is not documented, so the test gateway does not forward them.
extension GatewayHub {
    static let maxProgressChunksPerInvoke = 1_000
    static let maxProgressChunkBytes = 16 * 1024

    func handleNodeInvokeProgress(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.nodeInvokeProgressParams, from: id),
            let invokeId = params["invokeId"]?.stringValue, let seq = params["seq"]?.intValue,
            let chunk = params["chunk"]?.stringValue
        else { return }
        if let caller = nodes.nodes[id]?.nodeId, params["nodeId"]?.stringValue != caller {
            respond(to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "nodeId mismatch"))
            return
        }
        guard chunk.utf8.count <= Self.maxProgressChunkBytes else {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "progress chunk too large"))
            return
        }
        guard let invoke = nodes.pending[invokeId], invoke.nodeConnection == id,
            params["nodeId"]?.stringValue == invoke.nodeId
        else {
            respond(to: id, requestId: request.id, payload: ["ok": true, "ignored": true])
            return
        }
        if nodes.progress[invokeId, default: []].count < Self.maxProgressChunksPerInvoke {
            nodes.progress[invokeId, default: []].append(NodeProgressChunk(seq: seq, chunk: chunk))
        }
        respond(to: id, requestId: request.id, payload: ["ok": true, "ignored": false])
    }

    func nodeProgressLog() -> [String: [NodeProgressChunk]] { nodes.progress }
}

extension TestGateway {
    /// The `node.invoke.progress` chunks nodes sent, by invoke id, in arrival order.
    public func nodeInvokeProgress() async -> [String: [NodeProgressChunk]] { await hub.nodeProgressLog() }
}
