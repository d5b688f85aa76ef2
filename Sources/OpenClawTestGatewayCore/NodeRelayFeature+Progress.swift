import OpenClawProtocol

/// `node.invoke.progress` from a node (upstream `NodeInvokeProgressParamsSchema`): kept per invoke for
/// tests. As upstream's handler (`server-methods/nodes.handlers.invoke-progress.ts`): a `nodeId` other
/// than the caller's is refused, so is a chunk over 16 KiB of UTF-8; a chunk for an invoke not running
/// on this node is answered `ignored: true` and dropped; every answer is `{ok: true, ignored}`. How
/// upstream hands chunks on to the caller is not documented, so the test gateway does not forward them.
extension NodeRelayFeature {
    static let maxProgressChunksPerInvoke = 1_000
    static let maxProgressChunkBytes = 16 * 1024

    /// What becomes of a progress chunk, by upstream's rules, before anything is stored.
    enum ProgressVerdict: Equatable {
        /// Answered with this `INVALID_REQUEST` message.
        case refused(String)
        /// Answered `{ok: true, ignored: true}` and dropped.
        case ignored
        /// Stored and answered `{ok: true, ignored: false}`.
        case accepted
    }

    /// The verdict on a chunk from connection `id` that claims `nodeId` for `invokeId`.
    func progressVerdict(invokeId: String, nodeId: String?, chunk: String, from id: Int) -> ProgressVerdict {
        if let caller = registry.nodes[id]?.nodeId, nodeId != caller { return .refused("nodeId mismatch") }
        guard chunk.utf8.count <= Self.maxProgressChunkBytes else { return .refused("progress chunk too large") }
        guard let invoke = registry.pending[invokeId], invoke.nodeConnection == id, nodeId == invoke.nodeId else {
            return .ignored
        }
        return .accepted
    }

    func handleNodeInvokeProgress(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.nodeInvokeProgressParams, from: id),
            let invokeId = params["invokeId"]?.stringValue, let seq = params["seq"]?.intValue,
            let chunk = params["chunk"]?.stringValue
        else { return }
        switch progressVerdict(invokeId: invokeId, nodeId: params["nodeId"]?.stringValue, chunk: chunk, from: id) {
        case .refused(let message):
            gateway.respond(to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: message))
        case .ignored:
            gateway.respond(to: id, requestId: request.id, payload: ["ok": true, "ignored": true])
        case .accepted:
            if registry.progress[invokeId, default: []].count < Self.maxProgressChunksPerInvoke {
                registry.progress[invokeId, default: []].append(NodeProgressChunk(seq: seq, chunk: chunk))
            }
            gateway.respond(to: id, requestId: request.id, payload: ["ok": true, "ignored": false])
        }
    }
}

extension TestGateway {
    /// The `node.invoke.progress` chunks nodes sent, by invoke id, in arrival order.
    public func nodeInvokeProgress() async -> [String: [NodeProgressChunk]] { await hub.nodeProgressLog() }
}
