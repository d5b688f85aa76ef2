/// The answer to `chat.history`: the newest messages of a session, oldest first. It is the
/// authoritative transcript; a client reconciles its local view with it after every run.
public struct ChatHistoryPage: Sendable, Hashable {
    /// The key exactly as the request sent it (the gateway echoes it, aliases included).
    public var sessionKey: String
    /// The current transcript id; absent while the session has no transcript yet.
    public var sessionId: String?
    public var messages: [ChatMessage]
    public var thinkingLevel: String?
    public var verboseLevel: String?
    /// v4 paging: older messages exist before this page.
    public var hasMore: Bool?
    /// v4 paging: the offset to ask for to get the next older page.
    public var nextOffset: Int?
    /// v4: the run still producing text when the page was cut, with the text not yet in `messages`.
    public var inFlightRun: InFlightRun?
    /// Summer 2026: an opaque cursor for this tail page; handed back as `cursor`, it asks only for what was
    /// stored since (``ChatHistoryCatchUp``). Absent from older gateways, which then get whole pages.
    public var deltaCursor: String?

    public init(
        sessionKey: String,
        sessionId: String? = nil,
        messages: [ChatMessage],
        thinkingLevel: String? = nil,
        verboseLevel: String? = nil,
        hasMore: Bool? = nil,
        nextOffset: Int? = nil,
        inFlightRun: InFlightRun? = nil,
        deltaCursor: String? = nil
    ) {
        self.sessionKey = sessionKey
        self.sessionId = sessionId
        self.messages = messages
        self.thinkingLevel = thinkingLevel
        self.verboseLevel = verboseLevel
        self.hasMore = hasMore
        self.nextOffset = nextOffset
        self.inFlightRun = inFlightRun
        self.deltaCursor = deltaCursor
    }

    /// Nil when the payload is not an object, or names no session and `requestedSessionKey` is nil.
    /// A page that does not echo `sessionKey` (older and third-party gateways) belongs to the session
    /// asked for. Messages that are not objects are skipped.
    public init?(json: JSONValue?, requestedSessionKey: String? = nil) {
        guard let json, json.objectValue != nil,
            let sessionKey = json["sessionKey"]?.nonEmptyStringValue ?? requestedSessionKey
        else { return nil }
        self.init(
            sessionKey: sessionKey,
            sessionId: json["sessionId"]?.nonEmptyStringValue,
            messages: Self.messages(in: json["messages"]),
            thinkingLevel: json["thinkingLevel"]?.nonEmptyStringValue,
            verboseLevel: json["verboseLevel"]?.nonEmptyStringValue,
            hasMore: json["hasMore"]?.boolValue,
            nextOffset: json["nextOffset"]?.lenientIntValue,
            inFlightRun: InFlightRun(json: json["inFlightRun"]),
            deltaCursor: json["deltaCursor"]?.nonEmptyStringValue
        )
    }

    /// The page's messages, in one array sized for all of them (a thousand-message page grew it ten times).
    private static func messages(in list: JSONValue?) -> [ChatMessage] {
        guard let list = list?.arrayValue else { return [] }
        var messages: [ChatMessage] = []
        messages.reserveCapacity(list.count)
        for element in list {
            if let message = ChatMessage(json: element) { messages.append(message) }
        }
        return messages
    }
}

/// v4 `chat.history` `inFlightRun`: lets a client that reconnected mid-run pick the live reply up.
public struct InFlightRun: Sendable, Hashable {
    public var runId: String
    /// The reply text so far that the page's messages do not contain yet.
    public var text: String

    public init(runId: String, text: String) {
        self.runId = runId
        self.text = text
    }

    package init?(json: JSONValue?) {
        guard let json, let runId = json["runId"]?.nonEmptyStringValue else { return nil }
        self.init(runId: runId, text: json["text"]?.stringValue ?? "")
    }
}
