import OpenClawProtocol

/// The unified approval family over the same registry as `exec.approval.*` (upstream
/// `refactor/operator-approvals.md`: the exec methods are adapters over one durable record).
extension ApprovalsFeature {
    /// `approval.resolve {id, kind, decision}` (upstream `ApprovalResolveParamsSchema`, exact full id):
    /// the first decision is applied (`applied: true`); a later one gets `applied: false` and the
    /// state already recorded. An unknown id is `APPROVAL_NOT_FOUND`.
    func handleUnifiedApprovalResolve(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.approvalResolveParams, from: id),
            let approvalId = params["id"]?.stringValue, let decisionText = params["decision"]?.stringValue,
            let decision = ExecApprovalDecision(rawValue: decisionText)
        else { return }
        guard params["kind"] == "exec", let record = registry.records[approvalId] else {
            gateway.respond(to: id, requestId: request.id, error: Self.unknownApproval)
            return
        }
        var applied = false
        if record.isPending {
            guard record.allowed.contains(decision) else {
                gateway.respond(to: id, requestId: request.id, error: Self.unavailable(decision, record: record))
                return
            }
            applyDecision(approvalId, decision, record: record, from: id, in: gateway)
            applied = true
        }
        guard let recorded = registry.records[approvalId] else { return }
        gateway.respond(
            to: id, requestId: request.id, payload: ["applied": .bool(applied), "approval": snapshot(recorded)])
    }

    /// A terminal `ApprovalSnapshot` (upstream `approvals.ts`): the reviewer-safe exec presentation plus
    /// the recorded status, reason and decision. `urlPath` is this gateway's own stable path.
    func snapshot(_ record: ApprovalRegistry.Record) -> JSONValue {
        let presentation = JSONValue.object(dropping: [
            ("kind", "exec"), ("commandText", .string(record.request["command"]?.stringValue ?? "")),
            ("host", record.request["host"]), ("agentId", record.request["agentId"]),
            ("allowedDecisions", .strings(record.allowed.map(\.rawValue))),
        ])
        let status: String
        switch record.decision {
        case .some(.deny): status = "denied"
        case .some: status = "allowed"
        case .none: status = record.expired ? "expired" : "pending"
        }
        // A pending snapshot has no resolution members at all (closed schema; `null` is not absent).
        let resolution: [(String, JSONValue?)] =
            record.isPending
            ? []
            : [
                ("resolvedAtMs", .int(record.resolvedAtMs ?? record.expiresAtMs)),
                ("reason", .string(record.expired ? "timeout" : "user")),
            ]
        return .object(
            dropping: [
                ("id", .string(record.id)), ("urlPath", .string("/approvals/\(record.id)")),
                ("createdAtMs", .int(record.createdAtMs)), ("expiresAtMs", .int(record.expiresAtMs)),
                ("presentation", presentation), ("status", .string(status)),
                ("decision", .string(record.decision?.rawValue)),
            ] + resolution)
    }
}
