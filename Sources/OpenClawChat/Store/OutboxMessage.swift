/// A message the user sent that history has not confirmed yet.
///
/// Written before the first send attempt and removed only when the message appears in the gateway's
/// history (or the user discards it), so a crash at any point resumes from here. The id is the
/// `chat.send` idempotency key: every attempt uses it, so a resend can never double the message.
public struct OutboxMessage: Sendable, Hashable, Identifiable {
    /// The idempotency key, also the transcript row id and the run id.
    public var id: String
    public var gateway: String
    public var sessionKey: String
    public var text: String
    public var thinking: String?
    /// Client time of the first send, epoch ms: the start of the expiry clock.
    public var createdAtMs: Int
    public var state: OutboxState
    public var attempts: Int
    public var lastAttemptAtMs: Int?

    public init(
        id: String,
        gateway: String,
        sessionKey: String,
        text: String,
        thinking: String? = nil,
        createdAtMs: Int,
        state: OutboxState = .queued,
        attempts: Int = 0,
        lastAttemptAtMs: Int? = nil
    ) {
        self.id = id
        self.gateway = gateway
        self.sessionKey = sessionKey
        self.text = text
        self.thinking = thinking
        self.createdAtMs = createdAtMs
        self.state = state
        self.attempts = attempts
        self.lastAttemptAtMs = lastAttemptAtMs
    }
}

/// Where an outbox message stands.
public enum OutboxState: Sendable, Hashable {
    /// Not sent yet, or the send never left this device: deliver when connected.
    case queued
    /// A send is in flight. Found after a restart, it is treated as ``ambiguous``.
    case sending
    /// The connection ended after the send left, before the answer: the gateway may or may not have
    /// it. Resent with the same idempotency key, which the gateway deduplicates.
    case ambiguous
    /// The gateway acknowledged it: waiting to see it in history.
    case accepted
    /// Refused by the gateway, or expired: kept for the user to retry or discard, never resent alone.
    case failed(reason: String)

    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// Whether delivery should be attempted when a connection is available.
    public var needsDelivery: Bool {
        switch self {
        case .queued, .sending, .ambiguous: true
        case .accepted, .failed: false
        }
    }
}
