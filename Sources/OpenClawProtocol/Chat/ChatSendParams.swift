/// `chat.send` params: one user message for a session.
///
/// Only the fields every gateway accepts from a non-admin operator are offered. The idempotency key
/// becomes the run id of the reply, so the caller makes it once per message and reuses it on a retry
/// (the gateway then answers `in_flight` or `ok` instead of starting a second run).
public struct ChatSendParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.chatSend

    public var sessionKey: String
    public var message: String
    /// A thinking level (`off`, `low`, `high` ...); the gateway prefixes the message with `/think`.
    public var thinking: String?
    public var idempotencyKey: String
    /// When the gateway gives up on the run; `0` means never. Negative values are not sent.
    public var timeoutMs: Int?
    /// Overrides the session's queue mode for this message only (protocol 4 gateways that know the
    /// field; see ``QueueMode``). Nil leaves the session's mode, which is all older gateways accept.
    public var queueMode: QueueMode?

    public init(
        sessionKey: String,
        message: String,
        idempotencyKey: String,
        thinking: String? = nil,
        timeoutMs: Int? = nil,
        queueMode: QueueMode? = nil
    ) {
        self.sessionKey = sessionKey
        self.message = message
        self.idempotencyKey = idempotencyKey
        self.thinking = thinking
        self.timeoutMs = timeoutMs
        self.queueMode = queueMode
    }

    public var json: JSONValue {
        .object(dropping: [
            ("sessionKey", .string(sessionKey)),
            ("message", .string(message)),
            ("thinking", .string(thinking.nilIfBlank)),
            ("idempotencyKey", .string(idempotencyKey)),
            ("timeoutMs", .int(timeoutMs?.nilIfBelow(0))),
            ("queueMode", .string(queueMode?.rawValue)),
        ])
    }
}
