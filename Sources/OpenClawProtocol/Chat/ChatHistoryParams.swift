/// `chat.history` params: the last `limit` messages of a session.
///
/// Late v4 gateways accept cursors and anchors too, but v3 and early v4 reject them, so only the
/// fields every version defines are sent.
public struct ChatHistoryParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.chatHistory
    /// The gateway's hard ceiling for `limit`.
    public static let maximumLimit = 1000
    /// The gateway's ceiling for `maxChars`.
    public static let maximumMaxChars = 500_000

    public var sessionKey: String
    /// How many of the newest messages to return (1...1000); the gateway's default is 200.
    public var limit: Int?
    /// Per-text-field truncation (1...500000); the gateway's default is 12,000.
    public var maxChars: Int?
    /// A tail page's opaque `deltaCursor`, handed back to ask only for what was stored after that page
    /// (the answer is a ``ChatHistoryCatchUp``, not a page). Sent without `limit`, as the catch-up is
    /// bounded by the gateway, not the client.
    public var cursor: String?

    public init(sessionKey: String, limit: Int? = nil, maxChars: Int? = nil, cursor: String? = nil) {
        self.sessionKey = sessionKey
        self.limit = limit
        self.maxChars = maxChars
        self.cursor = cursor
    }

    public var json: JSONValue {
        .object(dropping: [
            ("sessionKey", .string(sessionKey)),
            ("cursor", .string(cursor.flatMap { $0.isEmpty ? nil : $0 })),
            ("limit", cursor == nil ? .int(limit.map { Swift.min($0, Self.maximumLimit) }?.nilIfBelow(1)) : nil),
            ("maxChars", .int(maxChars.map { Swift.min($0, Self.maximumMaxChars) }?.nilIfBelow(1))),
        ])
    }
}
