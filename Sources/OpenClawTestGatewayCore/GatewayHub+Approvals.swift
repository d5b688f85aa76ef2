import OpenClawProtocol

/// Exec approvals, as upstream's gateway runs them (`server-methods/exec-approval.ts`,
/// `approval-shared.ts`): a scripted run asks, approvers are told, the first decision wins, the rest
/// are refused with a typed reason, and an undecided request expires.
extension GatewayHub {
    /// Who receives approval requests: an operator holding `operator.approvals` (or admin) whose
    /// `connect` declared the `exec-approvals` or `approvals` cap (upstream `canDeliverApprovals`; its
    /// built-in client ids for the official apps are not modelled).
    static func isExecApprover(_ connection: ConnectionState) -> Bool {
        connection.role == "operator"
            && ScopePolicy.allows(connection.scopes, OperatorScope.approvals)
            && (connection.caps.contains(ExecApprovalNames.execApprovalsCap)
                || connection.caps.contains(ExecApprovalNames.allApprovalsCap))
    }

    /// Asks the connected approvers about `approval` and waits for the outcome. With no approver
    /// connected it expires at once (`no-approval-route`); an aborted run stops waiting.
    func runAwaitApproval(_ runId: String, _ approval: ScriptedApproval) async -> ApprovalVerdict {
        guard let run = runs[runId] else { return .gone }
        let id = Self.newId()
        let now = Self.nowMs()
        let timeoutMs = max(1, configuration.approvalTimeoutMs)
        let executable = approval.argv.first ?? ""
        let resolvedPath = executable.hasPrefix("/") ? executable : "/usr/bin/" + executable
        let request = JSONValue.object(dropping: [
            ("command", .string(approval.command)), ("commandArgv", .strings(approval.argv)),
            ("systemRunPlan", .null), ("cwd", .string(approval.cwd)), ("nodeId", .null),
            ("host", .string(approval.host)), ("security", "allowlist"), ("ask", "on-miss"), ("agentId", "main"),
            ("resolvedPath", .string(resolvedPath)), ("sessionKey", .string(run.sessionKey)),
            // Late gateways say which decisions they accept; v3 ones accept all three and do not say.
            ("allowedDecisions", v4 ? .strings(approval.allowedDecisions.map(\.rawValue)) : nil),
        ])
        approvals.add(
            ApprovalRegistry.Record(
                id: id, request: request, allowed: approval.allowedDecisions, createdAtMs: now,
                expiresAtMs: now + timeoutMs))
        let payload: JSONValue = [
            "id": .string(id), "request": request, "createdAtMs": .int(now), "expiresAtMs": .int(now + timeoutMs),
        ]
        let reached = broadcast(ExecApprovalNames.requestedEvent, payload: payload, include: Self.isExecApprover)
        let audience = emitSessionApproval(id)
        if reached.isEmpty, audience.isEmpty {
            _ = approvals.expire(id, verdict: .noApprover)
            return .noApprover
        }
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(timeoutMs))
            await self?.expireApproval(id)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in approvals.wait(id, continuation) }
        } onCancel: {
            Task { await self.releaseApproval(id) }
        }
    }

    func expireApproval(_ id: String) {
        if approvals.expire(id) { emitSessionApproval(id) }
    }

    func releaseApproval(_ id: String) {
        approvals.release(id)
    }

    func pendingApprovalIds() -> [String] { approvals.pendingIds }

    /// `exec.approval.list`: the pending requests, oldest deadline first, as upstream's
    /// `listPendingRecords` (an array of `{id, request, createdAtMs, expiresAtMs}`).
    func handleApprovalList(_ request: RequestFrame, from id: Int) {
        guard validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
        let pending = approvals.pendingIds.compactMap { approvals.records[$0] }.sorted {
            $0.expiresAtMs < $1.expiresAtMs
        }
        let items = pending.map { record -> JSONValue in
            [
                "id": .string(record.id), "request": record.request, "createdAtMs": .int(record.createdAtMs),
                "expiresAtMs": .int(record.expiresAtMs),
            ]
        }
        respond(to: id, requestId: request.id, payload: .array(items))
    }

    /// `exec.approval.get {id}`: one pending request, found as `resolve` finds it (exact id or unique
    /// prefix), answered as upstream's handler does (`server-methods/exec-approval.ts`); a request that
    /// is decided or expired is `APPROVAL_NOT_FOUND` like an unknown one (upstream's `get` is
    /// pending-only), so it tells a client only whether a decision can still be made.
    func handleApprovalGet(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.execApprovalGetParams, from: id),
            let reference = params["id"]?.stringValue
        else { return }
        switch approvals.lookup(reference, pending: true) {
        case .ambiguous:
            respond(to: id, requestId: request.id, error: Self.ambiguousApproval)
        case .none:
            respond(to: id, requestId: request.id, error: Self.unknownApproval)
        case .found(let approvalId):
            guard let record = approvals.records[approvalId] else { return }
            let command = record.request["command"]?.stringValue
            respond(
                to: id, requestId: request.id,
                payload: [
                    "id": .string(approvalId), "commandText": .string(command ?? ""),
                    "commandPreview": record.request["commandPreview"] ?? .null,
                    "allowedDecisions": .strings(record.allowed.map(\.rawValue)) ?? [],
                    "host": record.request["host"] ?? .null, "nodeId": record.request["nodeId"] ?? .null,
                    "agentId": record.request["agentId"] ?? .null, "expiresAtMs": .int(record.expiresAtMs),
                ])
        }
    }

    /// Upstream's answer to an id that names no pending request (`APPROVAL_NOT_FOUND_DETAILS`).
    /// A prefix more than one pending request starts with (`get` and `resolve` alike).
    static let ambiguousApproval = ErrorShape(
        code: .invalidRequest, message: "ambiguous approval id prefix; use the full id")

    static let unknownApproval = ErrorShape(
        code: .invalidRequest, message: "unknown or expired approval id",
        details: [
            "reason": ApprovalRefusalReason.notFound.wire,
            "remediation": "Re-request the action; pending approvals are cleared after expiry or restart.",
        ])

    /// `exec.approval.resolve {id, decision}`: exact id or unique prefix; a repeat of the same decision
    /// is answered `ok`, a different one `APPROVAL_ALREADY_RESOLVED`; unknown or expired ids
    /// `APPROVAL_NOT_FOUND` (both as `INVALID_REQUEST` with `details.reason`, as upstream).
    func handleApprovalResolve(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.execApprovalResolveParams(v4: v4), from: id),
            let reference = params["id"]?.stringValue, let decisionText = params["decision"]?.stringValue
        else { return }
        guard let decision = ExecApprovalDecision(rawValue: decisionText) else {
            respond(
                to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "invalid decision"))
            return
        }
        switch approvals.lookup(reference, pending: true) {
        case .ambiguous:
            respond(to: id, requestId: request.id, error: Self.ambiguousApproval)
        case .none:
            if case .found(let done) = approvals.lookup(reference, pending: false),
                let recorded = approvals.records[done]?.decision
            {
                if recorded == decision {
                    respond(to: id, requestId: request.id, payload: ["ok": true])
                } else {
                    respond(
                        to: id, requestId: request.id,
                        error: ErrorShape(
                            code: .invalidRequest, message: "approval already resolved",
                            details: ["reason": ApprovalRefusalReason.alreadyResolved.wire]))
                }
                return
            }
            respond(to: id, requestId: request.id, error: Self.unknownApproval)
        case .found(let approvalId):
            guard let record = approvals.records[approvalId] else { return }
            guard record.allowed.contains(decision) else {
                respond(to: id, requestId: request.id, error: Self.unavailable(decision, record: record))
                return
            }
            applyDecision(approvalId, decision, record: record, from: id)
            respond(to: id, requestId: request.id, payload: ["ok": true])
        }
    }

    /// A decision the request does not offer (`exec.approval.resolve` and `approval.resolve` alike).
    static func unavailable(_ decision: ExecApprovalDecision, record: ApprovalRegistry.Record) -> ErrorShape {
        ErrorShape(
            code: .invalidRequest, message: "\(decision.rawValue) is unavailable for this request",
            details: ["allowedDecisions": .strings(record.allowed.map(\.rawValue)) ?? []])
    }

    /// Records the first decision on a pending request and tells every approver (`resolved` event); the
    /// fault plan may end the deciding socket first, as a lost answer.
    func applyDecision(
        _ approvalId: String, _ decision: ExecApprovalDecision, record: ApprovalRegistry.Record, from id: Int
    ) {
        let name = connections[id]?.clientName
        _ = approvals.decide(approvalId, decision, by: name)
        // The decision is applied; this socket then ends before its answer or the event reach it.
        let dropping = faults.dropConnectionOnApprovalResolve
        faults.dropConnectionOnApprovalResolve = false
        if dropping { drop(id) }
        let resolved = JSONValue.object(dropping: [
            ("id", .string(approvalId)), ("decision", .string(decision.rawValue)), ("resolvedBy", .string(name)),
            ("ts", .int(Self.nowMs())), ("request", record.request),
        ])
        broadcast(ExecApprovalNames.resolvedEvent, payload: resolved, include: Self.isExecApprover)
        emitSessionApproval(approvalId)
    }
}
