/// `chat.message.get` (summer 2026): one history message in full, for a row `chat.history` cut at its
/// per-text limit. Only the fields upstream's closed `ChatMessageGetParamsSchema` has.
public struct ChatMessageGetParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.chatMessageGet
    /// The gateway's ceiling for `maxChars`.
    public static let maximumMaxChars = 2_000_000

    public var sessionKey: String
    /// The message's `__openclaw.id`, as a history page surfaced it.
    public var messageId: String
    /// Per-text limit (1...2,000,000); the gateway's own bound when absent.
    public var maxChars: Int?

    public init(sessionKey: String, messageId: String, maxChars: Int? = nil) {
        self.sessionKey = sessionKey
        self.messageId = messageId
        self.maxChars = maxChars
    }

    public var json: JSONValue {
        .object(dropping: [
            ("sessionKey", .string(sessionKey)), ("messageId", .string(messageId)),
            ("maxChars", .int(maxChars.map { Swift.min($0, Self.maximumMaxChars) }?.nilIfBelow(1))),
        ])
    }
}

/// The answer to `chat.message.get`: the message, or why the gateway will not give it.
public enum ChatMessageGetResult: Sendable, Hashable {
    case found(ChatMessage)
    /// `not_found`, `oversized` or `not_visible` (upstream's closed reasons); another string from a newer
    /// gateway is kept as it came.
    case unavailable(reason: String)

    /// Nil when the payload is not `{ok, message?, unavailableReason?}`.
    public init?(json: JSONValue?) {
        guard let json, let ok = json["ok"]?.boolValue else { return nil }
        if ok, let message = ChatMessage(json: json["message"]) {
            self = .found(message)
        } else {
            self = .unavailable(reason: json["unavailableReason"]?.nonEmptyStringValue ?? "not_found")
        }
    }
}

extension GatewayMethodName {
    /// Summer 2026: one history message without the page's truncation.
    public static let chatMessageGet = "chat.message.get"
}

extension ChatMessage {
    /// What `chat.history` appends to a text it cut at `maxChars` (upstream's history sanitising).
    public static let historyTruncationMarker = "\n...(truncated)..."

    /// `text` without the cut marker at its end, compared as bytes (the gateway appends exactly these);
    /// nil when it does not end with it.
    public static func removingTruncationMarker(from text: String) -> String? {
        guard endsWithTruncationMarker(text) else { return nil }
        return String(decoding: text.utf8.dropLast(historyTruncationMarker.utf8.count), as: UTF8.self)
    }

    /// Whether `text` ends with the cut marker's bytes.
    public static func endsWithTruncationMarker(_ text: String) -> Bool {
        text.utf8.reversed().starts(with: historyTruncationMarker.utf8.reversed())
    }
}
