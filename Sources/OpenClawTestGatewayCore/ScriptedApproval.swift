import OpenClawProtocol

/// A command a scripted run asks an operator to approve before it "runs" it.
public struct ScriptedApproval: Sendable, Hashable {
    /// The command text, exactly as approvers are shown it (hostile strings included).
    public var command: String
    public var argv: [String]
    public var cwd: String
    /// `gateway` (the command runs on the gateway host) or `node`.
    public var host: String
    /// What the approver may answer; all three by default.
    public var allowedDecisions: [ExecApprovalDecision]

    public init(
        command: String,
        argv: [String]? = nil,
        cwd: String = "/home/agent/project",
        host: String = "gateway",
        allowedDecisions: [ExecApprovalDecision] = ExecApprovalDecision.allCases
    ) {
        self.command = command
        self.argv = argv ?? command.split(separator: " ").map(String.init)
        self.cwd = cwd
        self.host = host
        self.allowedDecisions = allowedDecisions
    }
}

/// How a scripted run's approval ended, as the run sees it.
enum ApprovalVerdict: Sendable, Equatable {
    case allowed(ExecApprovalDecision)
    case denied(by: String?)
    /// Nobody decided before the deadline.
    case expired
    /// No approver was connected, so it expired at once (upstream `no-approval-route`).
    case noApprover
    /// The run was aborted while waiting.
    case gone

    /// What the agent tells the user when the command did not run.
    func refusal(of command: String) -> String? {
        switch self {
        case .allowed, .gone: return nil
        case .denied(let by):
            return "I did not run `\(command)`: the approval was denied\(by.map { " by \($0)" } ?? "")."
        case .expired: return "I did not run `\(command)`: nobody approved it in time (the approval expired)."
        case .noApprover:
            return "I did not run `\(command)`: no approver is connected, so the request expired at once."
        }
    }
}
