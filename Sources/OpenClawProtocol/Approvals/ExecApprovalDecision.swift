/// What an approver decides about a command waiting for approval (upstream `ExecApprovalDecision`,
/// `src/infra/exec-approvals.ts`): the only three values `exec.approval.resolve` accepts.
public enum ExecApprovalDecision: String, Sendable, Hashable, CaseIterable {
    /// Run this command this once.
    case allowOnce = "allow-once"
    /// Run it and add it to the host's allowlist, so it is not asked about again.
    case allowAlways = "allow-always"
    case deny

    /// Whether the command may run.
    public var allowsRun: Bool { self != .deny }
}

/// Names of the exec-approval events, method and client capabilities.
public enum ExecApprovalNames {
    /// A command waits for an operator's decision (only approvers receive it).
    public static let requestedEvent = "exec.approval.requested"
    /// An approver decided (sent to every approver, so the other clients' cards close).
    public static let resolvedEvent = "exec.approval.resolved"
    public static let resolveMethod = "exec.approval.resolve"
    /// The pending requests, as `[{id, request, createdAtMs, expiresAtMs}]` (no params): what an
    /// approver missed while it was not connected.
    public static let listMethod = "exec.approval.list"
    /// One pending request, `{id}` → `{id, commandText, commandPreview, allowedDecisions, host, nodeId,
    /// agentId, expiresAtMs}`; a request no longer pending is `APPROVAL_NOT_FOUND`, like an unknown one.
    /// How a client learns whether a decision whose answer was lost reached the gateway.
    public static let getMethod = "exec.approval.get"
    /// The `connect` cap that makes an operator client an approver of exec requests (with the scope
    /// `operator.approvals`). The broader `approvals` cap also covers plugin approvals, which this
    /// client does not handle, so it is never declared.
    public static let execApprovalsCap = "exec-approvals"
    public static let allApprovalsCap = "approvals"
}
