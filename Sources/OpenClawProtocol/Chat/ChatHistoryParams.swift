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

    /// A page; what was stored after a page's `deltaCursor` is asked with ``ChatHistoryCatchUpParams``.
    public init(sessionKey: String, limit: Int? = nil, maxChars: Int? = nil) {
        self.sessionKey = sessionKey
        self.limit = limit
        self.maxChars = maxChars
    }

    public var json: JSONValue {
        .object(dropping: [
            ("sessionKey", .string(sessionKey)),
            ("limit", .int(limit.map { Swift.min($0, Self.maximumLimit) }?.nilIfBelow(1))),
            ("maxChars", .int(maxChars.map { Swift.min($0, Self.maximumMaxChars) }?.nilIfBelow(1))),
        ])
    }
}
