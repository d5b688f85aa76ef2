import OpenClawProtocol

/// Which scope each method needs and how scopes imply one another.
///
/// `operator.admin` allows everything; `operator.write` implies `operator.read`; methods not in the
/// table need `operator.admin`, so a non-admin calling an unknown method sees "missing scope:
/// operator.admin" before "unknown method".
enum ScopePolicy {
    /// Methods callable by any role with no scope.
    static let open: Set<String> = [GatewayMethodName.health]

    static let required: [String: String] = [
        GatewayMethodName.chatHistory: OperatorScope.read,
        GatewayMethodName.chatMessageGet: OperatorScope.read,
        GatewayMethodName.artifactsDownload: OperatorScope.read,
        GatewayMethodName.sessionsList: OperatorScope.read,
        GatewayMethodName.modelsList: OperatorScope.read,
        GatewayMethodName.agentIdentity: OperatorScope.read,
        GatewayMethodName.commandsList: OperatorScope.read,
        GatewayMethodName.sessionsSubscribe: OperatorScope.read,
        SessionApprovalNames.subscribeMethod: OperatorScope.read,
        SessionApprovalNames.unsubscribeMethod: OperatorScope.read,
        GatewayMethodName.chatSend: OperatorScope.write,
        GatewayMethodName.chatAbort: OperatorScope.write,
        // At least write; the handler asks admin for what v3 and v4 keep admin-only.
        GatewayMethodName.sessionsPatch: OperatorScope.write,
        GatewayMethodName.devicePairList: OperatorScope.pairing,
        GatewayMethodName.devicePairApprove: OperatorScope.pairing,
        GatewayMethodName.nodeList: OperatorScope.read,
        GatewayMethodName.nodeDescribe: OperatorScope.read,
        GatewayMethodName.nodeInvoke: OperatorScope.write,
        ExecApprovalNames.resolveMethod: OperatorScope.approvals,
        ExecApprovalNames.listMethod: OperatorScope.approvals,
        ExecApprovalNames.getMethod: OperatorScope.approvals,
        ApprovalNames.resolveMethod: OperatorScope.approvals,
        ApprovalNames.getMethod: OperatorScope.approvals,
        ApprovalNames.historyMethod: OperatorScope.approvals,
        QuestionNames.listMethod: OperatorScope.questions,
        QuestionNames.getMethod: OperatorScope.questions,
        QuestionNames.resolveMethod: OperatorScope.questions,
    ]

    /// The scope `method` needs, nil for open methods.
    static func requiredScope(for method: String) -> String? {
        // Node methods are gated by role (a node holds no scopes), checked before this.
        if open.contains(method) || GatewayCatalog.nodeOnlyMethods.contains(method) { return nil }
        return required[method] ?? OperatorScope.admin
    }

    /// Whether `held` satisfies `needed`.
    static func allows(_ held: Set<String>, _ needed: String) -> Bool {
        if held.contains(OperatorScope.admin) || held.contains(needed) { return true }
        return needed == OperatorScope.read && held.contains(OperatorScope.write)
    }

    /// Whether `granted` covers every scope in `requested` (pairing records and device tokens).
    static func covers(_ granted: Set<String>, _ requested: [String]) -> Bool {
        requested.allSatisfy { scope in
            if granted.contains(scope) { return true }
            if granted.contains(OperatorScope.admin), scope.hasPrefix("operator.") { return true }
            return scope == OperatorScope.read && granted.contains(OperatorScope.write)
        }
    }

    /// The refusal for a missing scope, in the configured style.
    static func missingScopeError(_ scope: String, style: MissingScopeStyle) -> ErrorShape {
        switch style {
        case .legacy:
            return ErrorShape(code: .invalidRequest, message: "missing scope: \(scope)")
        case .forbidden:
            return ErrorShape(
                code: .forbidden,
                message: "missing scope: \(scope)",
                details: ["code": "MISSING_SCOPE", "missingScope": .string(scope), "requiredScopes": [.string(scope)]]
            )
        }
    }
}
