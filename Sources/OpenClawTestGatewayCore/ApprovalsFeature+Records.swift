import OpenClawProtocol

/// The unified family's read side (upstream `approval.get`, `approval.history`, summer 2026) over the
/// same registry as `exec.approval.*`.
extension ApprovalsFeature {
    /// `approval.get {id}` (upstream `ApprovalGetParamsSchema`, the exact full id): the pending or
    /// terminal snapshot; an unknown id is `APPROVAL_NOT_FOUND`.
    func handleApprovalRecordGet(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.approvalGetParams, from: id),
            let approvalId = params["id"]?.stringValue
        else { return }
        guard approvalId != ".", approvalId != ".." else {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(
                    code: .invalidRequest, message: "invalid approval.get params: at /id: must match pattern"))
            return
        }
        guard let record = registry.records[approvalId] else {
            gateway.respond(to: id, requestId: request.id, error: Self.unknownApproval)
            return
        }
        gateway.respond(to: id, requestId: request.id, payload: ["approval": snapshot(record)])
    }

    /// `approval.history {cursor?, limit?, kind?}` (upstream `ApprovalHistoryParamsSchema`): terminal
    /// approvals, newest first, `limit` (default 50) per page, `nextCursor` while older ones follow. The
    /// cursor is this gateway's own opaque token; one it did not issue is refused.
    func handleApprovalHistory(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.approvalHistoryParams, from: id) else {
            return
        }
        let limit = params["limit"]?.intValue ?? 50
        var offset = 0
        if let cursor = params["cursor"]?.stringValue {
            guard cursor.hasPrefix("h"), let value = Int(cursor.dropFirst()), value >= 0 else {
                gateway.respond(
                    to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "invalid cursor"))
                return
            }
            offset = value
        }
        let kind = params["kind"]?.stringValue ?? "exec"
        let terminal =
            kind == "exec"
            ? registry.records.values.filter { !$0.isPending }.sorted {
                ($0.resolvedAtMs ?? 0, $0.id) > ($1.resolvedAtMs ?? 0, $1.id)
            } : []
        let page = terminal.dropFirst(offset).prefix(limit)
        // Absent on the last page: upstream's `nextCursor` is optional, never null (`JSONValue` takes a
        // `nil` literal as `.null`, so the member is dropped explicitly).
        var members: [(String, JSONValue?)] = [("items", .array(page.map(snapshot)))]
        if offset + page.count < terminal.count { members.append(("nextCursor", .string("h\(offset + page.count)"))) }
        gateway.respond(
            to: id, requestId: request.id,
            payload: .object(dropping: members))
    }
}

extension ProtocolShapes {
    /// `approval.get` (upstream `ApprovalGetParamsSchema`): `{id}`, closed.
    static let approvalGetParams = ObjectShape(["id": .string(minLength: 1)], required: ["id"])

    /// `approval.history` (upstream `ApprovalHistoryParamsSchema`, 2026.9): all optional, closed.
    static let approvalHistoryParams = ObjectShape([
        "cursor": .string(minLength: 1, maxLength: 512), "limit": .integer(minimum: 1, maximum: 100),
        "kind": .oneOf(["exec", "plugin", "system-agent"]),
    ])
}
