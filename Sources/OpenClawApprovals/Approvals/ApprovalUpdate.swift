import OpenClawProtocol

/// What an ``ApprovalsClient`` reports to its subscribers, in order.
public enum ApprovalUpdate: Sendable, Equatable {
    case availability(ApprovalAvailability)
    /// A command now waits for a decision.
    case requested(PendingApproval)
    /// It stopped waiting: decided here or elsewhere, or expired. Its card closes.
    case closed(ClosedApproval)
    /// A decision whose answer was lost did not reach the gateway (it says the request still waits):
    /// the card stays and may be decided again.
    case undelivered(PendingApproval, ExecApprovalDecision)
}
