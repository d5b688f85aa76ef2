import OpenClawProtocol

/// A question waiting for the operator, as this client holds it: the record and when it expires on
/// this machine's monotonic clock.
///
/// As with approvals, the deadline is the arrival time plus the lifetime the gateway gave it by its
/// own clock (`expiresAtMs - createdAtMs`), so a skewed local clock changes nothing; without both times
/// it is measured against the local wall clock, and without either it gets upstream's default (900 s).
/// Lifetimes are capped at a day: a gateway controls the numbers.
public struct PendingQuestion: Sendable, Hashable, Identifiable {
    public let record: QuestionRecord
    public let receivedAt: ContinuousClock.Instant
    public let deadline: ContinuousClock.Instant

    /// Upstream `ask_user`'s default `timeoutSeconds` (900).
    public static let defaultLifetimeMs = 900_000
    public static let maxLifetimeMs = 86_400_000

    public var id: String { record.id }
    public var questions: [AskedQuestion] { record.questions }

    public init(record: QuestionRecord, receivedAt: ContinuousClock.Instant, wallClockNowMs: Int) {
        self.record = record
        self.receivedAt = receivedAt
        let untilExpiry = record.expiresAtMs.map { expires in
            let (span, overflow) = expires.subtractingReportingOverflow(wallClockNowMs)
            return overflow ? 0 : max(0, span)
        }
        let lifetime = record.lifetimeMs ?? untilExpiry ?? Self.defaultLifetimeMs
        self.deadline = receivedAt + .milliseconds(min(lifetime, Self.maxLifetimeMs))
    }

    /// `m:ss` (or `h:mm:ss`) left at `now`, rounded up so `0:00` only shows once it has expired.
    public func countdown(at now: ContinuousClock.Instant) -> String {
        let (seconds, attoseconds) = max(.zero, deadline - now).components
        let total = Int(seconds) + (attoseconds > 0 ? 1 : 0)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        if total >= 3600 { return "\(total / 3600):\(two(total / 60 % 60)):\(two(total % 60))" }
        return "\(total / 60):\(two(total % 60))"
    }
}

/// How a question stopped waiting.
public enum QuestionOutcome: Sendable, Hashable {
    /// Answered, here (`byUs`) or on another surface (the control UI, a chat channel).
    case answered(QuestionAnswers, byUs: Bool)
    /// Skipped (`cancel`), or the agent's run was aborted.
    case cancelled(byUs: Bool)
    /// Nobody answered in time; the agent goes on with its own judgement.
    case expired
    /// The gateway no longer lists it after a reconnect: resolved while this client was away.
    case withdrawn
    /// Closed with a status this client does not know (a newer gateway's value).
    case other(String)

    /// The outcome a `question.resolved` event (or the answer to `question.resolve`) reports.
    init(_ resolved: QuestionResolved, byUs: Bool) {
        switch resolved.status {
        case .answered: self = .answered(resolved.answers ?? QuestionAnswers([:]), byUs: byUs)
        case .cancelled: self = .cancelled(byUs: byUs)
        case .expired, .pending: self = .expired
        case .other(let status): self = .other(status)
        }
    }
}

/// A question that is no longer pending, and why.
public struct ClosedQuestion: Sendable, Hashable {
    public let question: PendingQuestion
    public let outcome: QuestionOutcome

    public var id: String { question.id }
}
