import OpenClawGateway
import OpenClawProtocol

extension GatewayConnectionConfiguration {
    /// Makes the connection an exec approver: declares the `exec-approvals` cap and asks for
    /// `operator.approvals`. Both are needed: upstream delivers requests only to clients with the scope
    /// and a cap (or a client id) that says they render them.
    ///
    /// `required: false` (the chat, the app) asks for the scope as optional: a gateway that wants this
    /// device approved for it first gets a connection without it, so chat still works and
    /// `GatewaySession.scopeRefusal` says what to approve. `required: true` (a dedicated approver)
    /// asks for it outright, so the refusal is the connection's error.
    public mutating func enableApprovals(required: Bool) {
        if !caps.contains(ExecApprovalNames.execApprovalsCap) { caps.append(ExecApprovalNames.execApprovalsCap) }
        guard !scopes.contains(OperatorScope.approvals), !optionalScopes.contains(OperatorScope.approvals) else {
            return
        }
        if required { scopes.append(OperatorScope.approvals) } else { optionalScopes.append(OperatorScope.approvals) }
    }

    /// Whether ``enableApprovals(required:)`` was applied.
    public var approvalsEnabled: Bool { caps.contains(ExecApprovalNames.execApprovalsCap) }
}
