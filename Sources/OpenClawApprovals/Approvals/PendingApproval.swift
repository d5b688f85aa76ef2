import OpenClawProtocol

/// A command waiting for a decision, as this client holds it: the request, how it is shown, and when
/// it expires on this machine's monotonic clock.
///
/// The deadline is the moment it arrived plus the lifetime the gateway gave it by its own clock
/// (`expiresAtMs - createdAtMs`), so a local clock that is minutes off changes nothing. Only a request
/// without `createdAtMs` is measured against the local wall clock, and one without either time gets
/// upstream's default (30 minutes). Lifetimes are capped at a day: a gateway controls the numbers.
public struct PendingApproval: Sendable, Hashable, Identifiable {
    public let request: ExecApprovalRequest
    public let display: CommandDisplay
    public let receivedAt: ContinuousClock.Instant
    public let deadline: ContinuousClock.Instant

    /// Upstream's `DEFAULT_EXEC_APPROVAL_TIMEOUT_MS`.
    public static let defaultLifetimeMs = 1_800_000
    public static let maxLifetimeMs = 86_400_000

    public var id: String { request.id }

    public init(request: ExecApprovalRequest, receivedAt: ContinuousClock.Instant, wallClockNowMs: Int) {
        self.request = request
        self.display = CommandDisplay(request.command)
        self.receivedAt = receivedAt
        let untilExpiry = request.expiresAtMs.map { expires in
            let (span, overflow) = expires.subtractingReportingOverflow(wallClockNowMs)
            return overflow ? 0 : max(0, span)
        }
        let lifetime = request.lifetimeMs ?? untilExpiry ?? Self.defaultLifetimeMs
        self.deadline = receivedAt + .milliseconds(min(lifetime, Self.maxLifetimeMs))
    }

    /// The same request as `request` describes it more fully, its clock unchanged.
    init(enriching earlier: PendingApproval, with request: ExecApprovalRequest) {
        self.request = request
        self.display = CommandDisplay(request.command)
        self.receivedAt = earlier.receivedAt
        self.deadline = earlier.deadline
    }

    /// Time left at `now`, never negative.
    public func remaining(at now: ContinuousClock.Instant) -> Duration {
        max(.zero, deadline - now)
    }

    /// `m:ss` (or `h:mm:ss`) left at `now`, rounded up so `0:00` only shows once it has expired.
    public func countdown(at now: ContinuousClock.Instant) -> String {
        let left = remaining(at: now)
        let (seconds, attoseconds) = left.components
        let total = Int(seconds) + (attoseconds > 0 ? 1 : 0)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        if total >= 3600 { return "\(total / 3600):\(two(total / 60 % 60)):\(two(total % 60))" }
        return "\(total / 60):\(two(total % 60))"
    }

    /// Whether `decision` is one the gateway offers for this request.
    public func allows(_ decision: ExecApprovalDecision) -> Bool {
        request.allowedDecisions.contains(decision)
    }
}

/// How a request stopped waiting.
public enum ApprovalOutcome: Sendable, Hashable {
    /// An approver decided: this client (`byUs`) or another one (named by the gateway, when it does).
    case decided(ExecApprovalDecision, by: String?, byUs: Bool)
    /// Resolved with a decision this client does not know (a newer gateway's value).
    case resolvedOther(by: String?)
    /// Nobody decided in time; the gateway falls back to the host's `askFallback` (deny by default).
    case expired
    /// The gateway no longer lists it after a reconnect: decided elsewhere or expired while we were
    /// away (which, it does not say).
    case withdrawn
    /// Our decision left but its answer was lost, and after reconnecting the gateway no longer knows
    /// the request: it was decided (perhaps by this decision) or it expired; which, it does not say.
    case undetermined(sent: ExecApprovalDecision)
}

/// A request that is no longer pending, and why.
public struct ClosedApproval: Sendable, Hashable {
    public let approval: PendingApproval
    public let outcome: ApprovalOutcome

    public var id: String { approval.id }
}
