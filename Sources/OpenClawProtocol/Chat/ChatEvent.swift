/// The payload of a `chat` event: one step of a run's reply, for protocol 3 and 4.
///
/// Protocol 3 deltas carry the whole reply so far in ``message``; protocol 4 deltas carry
/// ``deltaText`` to append, or to start over with when ``replace`` is set, and only sometimes a
/// ``message`` snapshot. Terminal events (`final`, `aborted`, `error`) come once per run.
public struct ChatEvent: Sendable, Hashable {
    /// The `chat.send` idempotency key for runs this client started; other ids for other runs.
    public var runId: String
    public var sessionKey: String
    /// Per-run sequence number (gaps are normal; `chat.inject` uses 0). Nil if the gateway omitted it.
    public var seq: Int?
    public var state: ChatEventState
    /// The reply so far (deltas), the full reply (final), or the partial reply (aborted). Absent on
    /// silent finals and on some late v4 deltas.
    public var message: ChatMessage? {
        get { boxedMessage?.value }
        set { boxedMessage = newValue.map(Boxed.init) }
    }
    /// v4 deltas: the text to append, or the replacement when ``replace`` is true.
    public var deltaText: String?
    /// v4 deltas: ``deltaText`` replaces the reply so far instead of extending it.
    public var replace: Bool
    public var errorMessage: String?
    public var errorKind: ChatErrorKind?
    public var stopReason: String?
    public var usage: ChatUsage? {
        get { boxedUsage?.value }
        set { boxedUsage = newValue.map(Boxed.init) }
    }
    /// v4 `status` events: what the gateway is doing before the model answers.
    public var statusPhase: String?

    // Boxed: most events (v4 deltas) have neither, and inline they made every copy of an event 592 bytes.
    private var boxedMessage: Boxed<ChatMessage>?
    private var boxedUsage: Boxed<ChatUsage>?

    public init(
        runId: String,
        sessionKey: String,
        seq: Int?,
        state: ChatEventState,
        message: ChatMessage? = nil,
        deltaText: String? = nil,
        replace: Bool = false,
        errorMessage: String? = nil,
        errorKind: ChatErrorKind? = nil,
        stopReason: String? = nil,
        usage: ChatUsage? = nil,
        statusPhase: String? = nil
    ) {
        self.runId = runId
        self.sessionKey = sessionKey
        self.seq = seq
        self.state = state
        self.boxedMessage = message.map(Boxed.init)
        self.deltaText = deltaText
        self.replace = replace
        self.errorMessage = errorMessage
        self.errorKind = errorKind
        self.stopReason = stopReason
        self.boxedUsage = usage.map(Boxed.init)
        self.statusPhase = statusPhase
    }

    /// Nil when the run id, session key or state is missing: such an event cannot be placed.
    ///
    /// Reads the payload's members in one pass: a streamed reply decodes one of these per delta, and a
    /// lookup per field hashed a dozen keys for the five or so a delta has.
    public init?(json: JSONValue?) {
        guard case .object(let members)? = json else { return nil }
        self.init(members: members.members)
    }

    /// The payload's members, in any order; of duplicate names the last counts (as in a dictionary).
    init?(members: some Sequence<JSONMember>) {
        var runId: String?
        var sessionKey: String?
        var state: String?
        var seq: Int?
        var message: JSONValue?
        var deltaText: String?
        var replace = false
        var errorMessage: String?
        var errorKind: String?
        var stopReason: String?
        var usage: JSONValue?
        var statusPhase: String?
        for member in members {
            let (key, value) = (member.key, member.value)
            // The name's length first: a `switch` over strings compares the name with each case in turn,
            // and each comparison with a different name is a call into the runtime.
            switch (key.utf8.count, key) {
            case (5, "runId"): runId = value.nonEmptyStringValue
            case (10, "sessionKey"): sessionKey = value.nonEmptyStringValue
            case (5, "state"): state = value.nonEmptyStringValue
            case (3, "seq"): seq = value.lenientIntValue
            case (7, "message"): message = value
            case (9, "deltaText"): deltaText = value.stringValue
            case (7, "replace"): replace = value.boolValue ?? false
            case (12, "errorMessage"): errorMessage = value.nonEmptyStringValue
            case (9, "errorKind"): errorKind = value.nonEmptyStringValue
            case (10, "stopReason"): stopReason = value.nonEmptyStringValue
            case (5, "usage"): usage = value
            case (5, "phase"): statusPhase = value.nonEmptyStringValue
            default:
                // A name equal to one of ours as a `String` but longer in UTF-8 (a KELVIN SIGN for its `K`)
                // is ours to a dictionary, as it was here before lengths were compared first.
                switch key {
                case "sessionKey": sessionKey = value.nonEmptyStringValue
                case "errorKind": errorKind = value.nonEmptyStringValue
                default: break
                }
            }
        }
        guard let runId, let sessionKey, let state else { return nil }
        self.init(
            runId: runId,
            sessionKey: sessionKey,
            seq: seq,
            state: ChatEventState(wireValue: state),
            // Most events (v4 deltas) have neither: no call for what is absent.
            message: message.flatMap { ChatMessage(json: $0) },
            deltaText: deltaText,
            replace: replace,
            errorMessage: errorMessage,
            errorKind: errorKind.map(ChatErrorKind.init(wireValue:)),
            stopReason: stopReason,
            usage: usage.flatMap { ChatUsage(json: $0) },
            statusPhase: statusPhase
        )
    }

    /// The payload of a `chat` event frame; nil for other events or an unplaceable payload.
    public init?(frame: EventFrame) {
        guard frame.event == GatewayEventName.chat else { return nil }
        // Read straight from the members when the frame kept them: no dictionary is built for a delta.
        if case .members(let object) = frame.storedPayload {
            self.init(members: object.members)
        } else {
            self.init(json: frame.payload)
        }
    }
}

/// Where a run stands after a `chat` event. Any state the client does not know is ``other(_:)``,
/// which is never terminal: v4 added `status`, and later gateways may add more.
public enum ChatEventState: Sendable, Hashable {
    case delta
    case final
    case aborted
    case error
    case other(String)

    public init(wireValue: String) {
        switch wireValue {
        case "delta": self = .delta
        case "final": self = .final
        case "aborted": self = .aborted
        case "error": self = .error
        default: self = .other(wireValue)
        }
    }

    /// Whether the run is over: exactly `final`, `aborted` and `error`.
    public var isTerminal: Bool {
        switch self {
        case .final, .aborted, .error: return true
        case .delta, .other: return false
        }
    }
}

/// Why a run failed, when the gateway classified it.
public enum ChatErrorKind: Sendable, Hashable {
    case refusal
    case timeout
    case rateLimit
    case contextLength
    case unknown
    case other(String)

    public init(wireValue: String) {
        switch wireValue {
        case "refusal": self = .refusal
        case "timeout": self = .timeout
        case "rate_limit": self = .rateLimit
        case "context_length": self = .contextLength
        case "unknown": self = .unknown
        default: self = .other(wireValue)
        }
    }
}
