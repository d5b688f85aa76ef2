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
    /// When an attempt that may have reached the gateway first went without an answer (client time,
    /// epoch ms). Resending with the same key is safe only while the gateway remembers the key, which
    /// is counted from here (``OutboxPolicy/duplicateWindow``).
    public var uncertainSinceMs: Int?
    /// Files sent with the text. Their bytes stay where the attachment says (memory, or a file the
    /// store owns); the outbox keeps them until the message leaves it.
    public var attachments: [Attachment]

    public init(
        id: String,
        gateway: String,
        sessionKey: String,
        text: String,
        thinking: String? = nil,
        createdAtMs: Int,
        state: OutboxState = .queued,
        attempts: Int = 0,
        lastAttemptAtMs: Int? = nil,
        uncertainSinceMs: Int? = nil,
        attachments: [Attachment] = []
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
        self.uncertainSinceMs = uncertainSinceMs
        self.attachments = attachments
    }
}

/// Where an outbox message stands.
public enum OutboxState: Sendable, Hashable {
    /// Not sent yet, or the send never left this device: deliver when connected.
    case queued
    /// A send is in flight. Found after a restart, it is treated as ``ambiguous``.
    case sending
    /// The connection ended after the send left, before the answer: the gateway may or may not have
    /// it. Resent with the same idempotency key, which the gateway deduplicates — but only within
    /// ``OutboxPolicy/duplicateWindow`` of ``OutboxMessage/uncertainSinceMs``.
    case ambiguous
    /// The gateway acknowledged it: waiting to see it in history.
    case accepted
    /// Refused by the gateway, or expired: kept for the user to retry or discard, never resent alone.
    case failed(reason: String)
    /// Ambiguous past the gateway's duplicate window, and its history does not show it: it may or may
    /// not have arrived, and a resend could now start a second run. Kept for the user to resend or
    /// discard; removed by itself if history shows it after all.
    case unconfirmed

    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// Whether the message waits for the user (failed or unconfirmed) rather than for delivery.
    public var waitsForUser: Bool { isFailed || self == .unconfirmed }

    /// Whether delivery should be attempted when a connection is available.
    public var needsDelivery: Bool {
        switch self {
        case .queued, .sending, .ambiguous: true
        case .accepted, .failed, .unconfirmed: false
        }
    }
}
