extension GatewayMethodName {
    /// Turns on `sessions.changed` for this socket until it closes (`operator.read`, params `{}`).
    public static let sessionsSubscribe = "sessions.subscribe"
}

extension GatewayEventName {
    /// A session's row changed: run start/end, usage, settings. Sent only to sockets that called
    /// `sessions.subscribe`.
    public static let sessionsChanged = "sessions.changed"
}

/// `sessions.subscribe` params: none.
public struct SessionsSubscribeParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.sessionsSubscribe
    public init() {}
    public var json: JSONValue { [:] }
}

/// The usage fields of one `sessions.changed` event (or a `sessions.list` row), as a delta.
///
/// Upstream merges these by `sessionKey` with presence semantics (`docs/gateway/clients.md`): a field
/// left out changes nothing, `null` clears it, a value replaces it. Each field is therefore a
/// ``Change`` rather than an optional. The usage fields sit at the top level of the event; some
/// builds nest the whole row under `session`, read when the top level lacks them.
public struct SessionUsageChange: Sendable, Hashable {
    /// One field of a delta.
    public enum Change<Value: Sendable & Hashable>: Sendable, Hashable {
        case unchanged
        case cleared
        case set(Value)
    }

    public var sessionKey: String
    /// `start`, `end` or `error` when the change comes from a run's lifecycle.
    public var phase: String?
    public var runId: String?
    public var inputTokens: Change<Int>
    public var outputTokens: Change<Int>
    /// The context used by the latest model call.
    public var totalTokens: Change<Int>
    /// False when ``totalTokens`` is carried over from before the latest call (not yet measured).
    public var totalTokensFresh: Change<Bool>
    /// The context window the session's model may fill.
    public var contextTokens: Change<Int>
    public var estimatedCostUsd: Change<Double>
    public var model: Change<String>

    public init(
        sessionKey: String, phase: String? = nil, runId: String? = nil, inputTokens: Change<Int> = .unchanged,
        outputTokens: Change<Int> = .unchanged, totalTokens: Change<Int> = .unchanged,
        totalTokensFresh: Change<Bool> = .unchanged, contextTokens: Change<Int> = .unchanged,
        estimatedCostUsd: Change<Double> = .unchanged, model: Change<String> = .unchanged
    ) {
        self.sessionKey = sessionKey
        self.phase = phase
        self.runId = runId
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.totalTokens = totalTokens
        self.totalTokensFresh = totalTokensFresh
        self.contextTokens = contextTokens
        self.estimatedCostUsd = estimatedCostUsd
        self.model = model
    }

    /// Nil without a session key (`sessionKey`, else `key`). Counts must be non-negative integers and
    /// the cost a non-negative finite number; anything else is read as no change.
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        let row = json["session"]?.objectValue != nil ? json["session"] : nil
        guard
            let key = json["sessionKey"]?.nonEmptyStringValue ?? json["key"]?.nonEmptyStringValue
                ?? row?["key"]?.nonEmptyStringValue
        else { return nil }
        func member(_ name: String) -> JSONValue? { json.objectValue?[name] ?? row?.objectValue?[name] }
        func count(_ name: String) -> Change<Int> {
            Self.change(member(name)) { value in value.lenientIntValue.flatMap { $0 >= 0 ? $0 : nil } }
        }
        self.init(
            sessionKey: key,
            phase: json["phase"]?.stringValue,
            runId: json["runId"]?.nonEmptyStringValue,
            inputTokens: count("inputTokens"),
            outputTokens: count("outputTokens"),
            totalTokens: count("totalTokens"),
            totalTokensFresh: Self.change(member("totalTokensFresh")) { $0.boolValue },
            contextTokens: count("contextTokens"),
            estimatedCostUsd: Self.change(member("estimatedCostUsd")) { value in
                value.doubleValue.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            },
            model: Self.change(member("model")) { $0.nonEmptyStringValue }
        )
    }

    private static func change<Value>(_ value: JSONValue?, _ read: (JSONValue) -> Value?) -> Change<Value> {
        guard let value else { return .unchanged }
        if case .null = value { return .cleared }
        return read(value).map(Change.set) ?? .unchanged
    }
}
