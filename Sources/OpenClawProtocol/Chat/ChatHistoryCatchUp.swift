/// The answer to `chat.history` asked with a tail page's `deltaCursor`: either what was stored since
/// that page, or word that the cursor no longer leads anywhere and a whole tail page must be read.
///
/// Upstream's closed union (`ChatHistoryCursorResultSchema`, summer 2026): the gateway never answers a
/// cursor with a partial page — more than 200 events, 1 MB, a reset or a compaction in between, another
/// session's cursor or a stale one all come back as ``reset``.
public enum ChatHistoryCatchUp: Sendable, Hashable {
    /// The messages stored after the cursor's page, oldest first, and the cursor to use next time.
    case delta(ChatHistoryDelta)
    /// The cursor is of no use any more: read a tail page and replace what is shown.
    case reset

    /// Nil when the payload is neither a delta nor a reset (a gateway that ignored the cursor and sent a
    /// page is read by ``ChatHistoryPage`` instead, by the caller).
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        switch json["kind"]?.stringValue {
        case "reset": self = .reset
        case "delta":
            guard let cursor = json["deltaCursor"]?.stringValue, let messages = json["messages"]?.arrayValue else {
                return nil
            }
            self = .delta(
                ChatHistoryDelta(
                    messages: messages.compactMap { ChatMessage(json: $0) }, deltaCursor: cursor,
                    inFlightRun: InFlightRun(json: json["inFlightRun"])))
        default: return nil
        }
    }
}

/// The `kind: "delta"` answer: the gap since a cursor's page.
public struct ChatHistoryDelta: Sendable, Hashable {
    /// What was stored after the cursor, oldest first; each is applied as a live `session.message` would be.
    public var messages: [ChatMessage]
    /// The cursor that follows these messages.
    public var deltaCursor: String
    /// The run still producing text, as on a tail page.
    public var inFlightRun: InFlightRun?

    public init(messages: [ChatMessage], deltaCursor: String, inFlightRun: InFlightRun? = nil) {
        self.messages = messages
        self.deltaCursor = deltaCursor
        self.inFlightRun = inFlightRun
    }
}
