import OpenClawProtocol

/// The session approval audience (2026.7, `docs/gateway/protocol.md` "sessions.messages.subscribe"): a
/// client subscribes to one session's messages with `includeApprovals: true` and gets, in the answer, the
/// approvals pending for that session (`approvalReplay`), then a `session.approval` event for each
/// pending or terminal transition. The opt-in needs `operator.admin`, or `operator.approvals` on a paired
/// device; the exec broadcasts (`exec.approval.*`) go on beside it.
extension ApprovalsFeature {

    /// `sessions.messages.subscribe {key, agentId?, includeApprovals?: true}` (closed;
    /// `includeApprovals` is the literal `true`). Re-subscribing without it drops the approval audience.
    func handleSessionsMessagesSubscribe(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(request, shape: ProtocolShapes.sessionsMessagesSubscribeParams, from: id),
            let raw = params["key"]?.stringValue, let connection = gateway.peers[id]
        else { return }
        if params["includeApprovals"] == .bool(false) {
            let message = "invalid \(request.method) params: includeApprovals: must be true"
            gateway.respond(to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: message))
            return
        }
        let key = SessionStore.canonicalKey(raw)
        guard params["includeApprovals"] == .bool(true) else {
            gateway.peers[id]?.approvalAudience.remove(key)
            gateway.respond(to: id, requestId: request.id, payload: ["subscribed": true, "key": .string(key)])
            return
        }
        let admin = ScopePolicy.allows(connection.scopes, OperatorScope.admin)
        let pairedApprover =
            connection.deviceId != nil && ScopePolicy.allows(connection.scopes, OperatorScope.approvals)
        guard admin || pairedApprover else {
            gateway.respond(
                to: id, requestId: request.id,
                error: ScopePolicy.missingScopeError(
                    OperatorScope.approvals, style: gateway.configuration.missingScopeStyle))
            return
        }
        gateway.peers[id]?.approvalAudience.insert(key)
        let pending = registry.records.values
            .filter { $0.isPending && $0.request["sessionKey"]?.stringValue.map(SessionStore.canonicalKey) == key }
            .sorted { $0.createdAtMs < $1.createdAtMs }
        let replay: JSONValue = [
            "sessionKey": .string(key), "updatedAtMs": .int(GatewayHub.nowMs()),
            "approvals": .array(pending.map(snapshot)), "truncated": false,
        ]
        gateway.respond(
            to: id, requestId: request.id, payload: ["subscribed": true, "key": .string(key), "approvalReplay": replay])
    }

    /// `sessions.messages.unsubscribe {key, agentId?}` (closed).
    func handleSessionsMessagesUnsubscribe(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(
                request, shape: ProtocolShapes.sessionsMessagesUnsubscribeParams, from: id),
            let raw = params["key"]?.stringValue
        else { return }
        let key = SessionStore.canonicalKey(raw)
        gateway.peers[id]?.approvalAudience.remove(key)
        gateway.respond(to: id, requestId: request.id, payload: ["subscribed": false, "key": .string(key)])
    }

    /// Tells the approval's session audience about it as it stands now (pending, or terminal once
    /// decided or expired); returns the sockets reached.
    @discardableResult
    func emitSessionApproval(_ approvalId: String, in gateway: isolated GatewayHub) -> [Int] {
        guard gateway.router.offersSessionApprovals, let record = registry.records[approvalId],
            let raw = record.request["sessionKey"]?.stringValue
        else { return [] }
        let key = SessionStore.canonicalKey(raw)
        let payload: JSONValue = [
            "sessionKey": .string(key), "updatedAtMs": .int(GatewayHub.nowMs()),
            "phase": record.isPending ? "pending" : "terminal", "approval": snapshot(record),
        ]
        let audience = gateway.peers.values.filter { $0.isOpen && $0.approvalAudience.contains(key) }.map(\.id).sorted()
        for connection in audience {
            gateway.sendTargetedEvent(SessionApprovalNames.event, payload: payload, to: connection)
        }
        return audience
    }
}
