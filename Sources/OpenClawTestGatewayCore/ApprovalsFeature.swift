import OpenClawProtocol

/// Approvals and questions: what a scripted run asks the operators, and how they answer. Exec approvals
/// (`exec.approval.*` and the unified `approval.*` over the same records), the per-session approval
/// audience of `sessions.messages.subscribe`, and agent questions (`question.*`).
final class ApprovalsFeature {
    var registry = ApprovalRegistry()
    var questions = QuestionRegistry()

    init() {}

    /// How a run's ask starts: waiting on the request with this id, or already settled.
    enum Opening {
        case waiting(String)
        case settled(ApprovalVerdict)
    }

    func handle(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        switch request.method {
        case SessionApprovalNames.subscribeMethod: handleSessionsMessagesSubscribe(request, from: id, in: gateway)
        case SessionApprovalNames.unsubscribeMethod: handleSessionsMessagesUnsubscribe(request, from: id, in: gateway)
        case ExecApprovalNames.resolveMethod: handleApprovalResolve(request, from: id, in: gateway)
        case ExecApprovalNames.listMethod: handleApprovalList(request, from: id, in: gateway)
        case ExecApprovalNames.getMethod: handleApprovalGet(request, from: id, in: gateway)
        case ApprovalNames.resolveMethod: handleUnifiedApprovalResolve(request, from: id, in: gateway)
        case ApprovalNames.getMethod: handleApprovalRecordGet(request, from: id, in: gateway)
        case ApprovalNames.historyMethod: handleApprovalHistory(request, from: id, in: gateway)
        case QuestionNames.listMethod: handleQuestionList(request, from: id, in: gateway)
        case QuestionNames.getMethod: handleQuestionGet(request, from: id, in: gateway)
        case QuestionNames.resolveMethod: handleQuestionResolve(request, from: id, in: gateway)
        default:
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(request.method)"))
        }
    }
}

/// Exec approvals, as upstream's gateway runs them (`server-methods/exec-approval.ts`,
/// `approval-shared.ts`): a scripted run asks, approvers are told, the first decision wins, the rest
/// are refused with a typed reason, and an undecided request expires.
extension ApprovalsFeature {
    /// Who receives approval requests: an operator holding `operator.approvals` (or admin) whose
    /// `connect` declared the `exec-approvals` or `approvals` cap (upstream `canDeliverApprovals`; its
    /// built-in client ids for the official apps are not modelled).
    static func isExecApprover(_ connection: PeerSession) -> Bool {
        connection.role == .operator
            && ScopePolicy.allows(connection.scopes, OperatorScope.approvals)
            && (connection.caps.contains(ExecApprovalNames.execApprovalsCap)
                || connection.caps.contains(ExecApprovalNames.allApprovalsCap))
    }

    /// Opens a request for a run in `sessionKey` and tells the connected approvers. With no approver
    /// connected it expires at once (`no-approval-route`); otherwise its expiry timer starts.
    func open(_ approval: ScriptedApproval, sessionKey: String, in gateway: isolated GatewayHub) -> Opening {
        let id = GatewayHub.newId()
        let now = GatewayHub.nowMs()
        let timeoutMs = max(1, gateway.configuration.approvalTimeoutMs)
        let executable = approval.argv.first ?? ""
        let resolvedPath = executable.hasPrefix("/") ? executable : "/usr/bin/" + executable
        let request = JSONValue.object(dropping: [
            ("command", .string(approval.command)), ("commandArgv", .strings(approval.argv)),
            ("systemRunPlan", .null), ("cwd", .string(approval.cwd)), ("nodeId", .null),
            ("host", .string(approval.host)), ("security", "allowlist"), ("ask", "on-miss"), ("agentId", "main"),
            ("resolvedPath", .string(resolvedPath)), ("sessionKey", .string(sessionKey)),
            // Late gateways say which decisions they accept; v3 ones accept all three and do not say.
            ("allowedDecisions", gateway.v4 ? .strings(approval.allowedDecisions.map(\.rawValue)) : nil),
        ])
        registry.add(
            ApprovalRegistry.Record(
                id: id, request: request, allowed: approval.allowedDecisions, createdAtMs: now,
                expiresAtMs: now + timeoutMs))
        let payload: JSONValue = [
            "id": .string(id), "request": request, "createdAtMs": .int(now), "expiresAtMs": .int(now + timeoutMs),
        ]
        let reached = gateway.broadcast(
            ExecApprovalNames.requestedEvent, payload: payload, include: Self.isExecApprover)
        let audience = emitSessionApproval(id, in: gateway)
        if reached.isEmpty, audience.isEmpty {
            _ = registry.expire(id, verdict: .noApprover)
            return .settled(.noApprover)
        }
        // Unstructured: the approval's deadline outlives this request; a late fire finds it settled and does nothing.
        Task { [weak gateway] in
            try? await Task.sleep(for: .milliseconds(timeoutMs))
            await gateway?.expireApproval(id)
        }
        return .waiting(id)
    }

    func expireApproval(_ id: String, in gateway: isolated GatewayHub) {
        if registry.expire(id) { _ = emitSessionApproval(id, in: gateway) }
    }

    /// `exec.approval.list`: the pending requests, oldest deadline first, as upstream's
    /// `listPendingRecords` (an array of `{id, request, createdAtMs, expiresAtMs}`).
    func handleApprovalList(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard gateway.validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
        let pending = registry.pendingIds.compactMap { registry.records[$0] }.sorted {
            $0.expiresAtMs < $1.expiresAtMs
        }
        let items = pending.map { record -> JSONValue in
            [
                "id": .string(record.id), "request": record.request, "createdAtMs": .int(record.createdAtMs),
                "expiresAtMs": .int(record.expiresAtMs),
            ]
        }
        gateway.respond(to: id, requestId: request.id, payload: .array(items))
    }

    /// `exec.approval.get {id}`: one pending request, found as `resolve` finds it (exact id or unique
    /// prefix), answered as upstream's handler does (`server-methods/exec-approval.ts`); a request that
    /// is decided or expired is `APPROVAL_NOT_FOUND` like an unknown one (upstream's `get` is
    /// pending-only), so it tells a client only whether a decision can still be made.
    func handleApprovalGet(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.execApprovalGetParams, from: id),
            let reference = params["id"]?.stringValue
        else { return }
        switch registry.lookup(reference, pending: true) {
        case .ambiguous:
            gateway.respond(to: id, requestId: request.id, error: Self.ambiguousApproval)
        case .none:
            gateway.respond(to: id, requestId: request.id, error: Self.unknownApproval)
        case .found(let approvalId):
            guard let record = registry.records[approvalId] else { return }
            let command = record.request["command"]?.stringValue
            gateway.respond(
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
    func handleApprovalResolve(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(
                request, shape: ProtocolShapes.execApprovalResolveParams(v4: gateway.v4), from: id),
            let reference = params["id"]?.stringValue, let decisionText = params["decision"]?.stringValue
        else { return }
        guard let decision = ExecApprovalDecision(rawValue: decisionText) else {
            gateway.respond(
                to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "invalid decision"))
            return
        }
        switch registry.lookup(reference, pending: true) {
        case .ambiguous:
            gateway.respond(to: id, requestId: request.id, error: Self.ambiguousApproval)
        case .none:
            if case .found(let done) = registry.lookup(reference, pending: false),
                let recorded = registry.records[done]?.decision
            {
                if recorded == decision {
                    gateway.respond(to: id, requestId: request.id, payload: ["ok": true])
                } else {
                    gateway.respond(
                        to: id, requestId: request.id,
                        error: ErrorShape(
                            code: .invalidRequest, message: "approval already resolved",
                            details: ["reason": ApprovalRefusalReason.alreadyResolved.wire]))
                }
                return
            }
            gateway.respond(to: id, requestId: request.id, error: Self.unknownApproval)
        case .found(let approvalId):
            guard let record = registry.records[approvalId] else { return }
            guard record.allowed.contains(decision) else {
                gateway.respond(to: id, requestId: request.id, error: Self.unavailable(decision, record: record))
                return
            }
            applyDecision(approvalId, decision, record: record, from: id, in: gateway)
            gateway.respond(to: id, requestId: request.id, payload: ["ok": true])
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
        _ approvalId: String, _ decision: ExecApprovalDecision, record: ApprovalRegistry.Record, from id: Int,
        in gateway: isolated GatewayHub
    ) {
        let name = gateway.peers[id]?.clientName
        _ = registry.decide(approvalId, decision, by: name)
        // The decision is applied; this socket then ends before its answer or the event reach it.
        let dropping = gateway.faults.dropConnectionOnApprovalResolve
        gateway.faults.dropConnectionOnApprovalResolve = false
        if dropping { gateway.drop(id) }
        let resolved = JSONValue.object(dropping: [
            ("id", .string(approvalId)), ("decision", .string(decision.rawValue)), ("resolvedBy", .string(name)),
            ("ts", .int(GatewayHub.nowMs())), ("request", record.request),
        ])
        gateway.broadcast(ExecApprovalNames.resolvedEvent, payload: resolved, include: Self.isExecApprover)
        emitSessionApproval(approvalId, in: gateway)
    }
}
