/// The answer to `sessions.list`: session rows plus the gateway's model defaults.
public struct SessionsListResult: Sendable, Hashable {
    public var sessions: [SessionSummary]
    public var defaults: SessionListDefaults
    /// Gateway time of the snapshot, epoch ms.
    public var ts: Int?

    public init(sessions: [SessionSummary], defaults: SessionListDefaults = SessionListDefaults(), ts: Int? = nil) {
        self.sessions = sessions
        self.defaults = defaults
        self.ts = ts
    }

    /// Rows without a key are skipped; nil only when the payload is not an object.
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        self.init(
            sessions: json["sessions"]?.arrayValue?.compactMap(SessionSummary.init(json:)) ?? [],
            defaults: SessionListDefaults(json: json["defaults"]),
            ts: WireTimestamp.epochMilliseconds(json["ts"])
        )
    }
}

/// `sessions.list` `defaults`: what a session without its own override runs on.
public struct SessionListDefaults: Sendable, Hashable {
    public var modelProvider: String?
    public var model: String?
    public var contextTokens: Int?

    public init(modelProvider: String? = nil, model: String? = nil, contextTokens: Int? = nil) {
        self.modelProvider = modelProvider
        self.model = model
        self.contextTokens = contextTokens
    }

    init(json: JSONValue?) {
        self.init(
            modelProvider: json?["modelProvider"]?.nonEmptyStringValue,
            model: json?["model"]?.nonEmptyStringValue,
            contextTokens: json?["contextTokens"]?.lenientIntValue
        )
    }
}

/// One row of `sessions.list`: the subset of the gateway's session row a session picker shows.
public struct SessionSummary: Sendable, Hashable, Identifiable {
    public var key: String
    public var kind: SessionKind
    public var label: String?
    public var displayName: String?
    public var derivedTitle: String?
    public var lastMessagePreview: String?
    /// Last activity, epoch ms; nil for a session that never ran.
    public var updatedAt: Int?
    public var sessionId: String?
    public var modelProvider: String?
    public var model: String?
    public var contextTokens: Int?
    public var totalTokens: Int?
    public var thinkingLevel: String?
    public var status: SessionRunStatus?
    public var abortedLastRun: Bool?
    /// v4: whether a run is active right now; nil when the gateway did not say.
    public var hasActiveRun: Bool?

    public var id: String { key }

    /// The best human title: label, then display name, then derived title, then the key.
    public var title: String { label ?? displayName ?? derivedTitle ?? key }

    public init(key: String, kind: SessionKind = .unknown) {
        self.key = key
        self.kind = kind
    }

    public init?(json: JSONValue) {
        guard let key = json["key"]?.nonEmptyStringValue else { return nil }
        self.init(key: key, kind: SessionKind(wireValue: json["kind"]?.stringValue ?? "unknown"))
        label = json["label"]?.nonEmptyStringValue
        displayName = json["displayName"]?.nonEmptyStringValue
        derivedTitle = json["derivedTitle"]?.nonEmptyStringValue
        lastMessagePreview = json["lastMessagePreview"]?.nonEmptyStringValue
        updatedAt = WireTimestamp.epochMilliseconds(json["updatedAt"])
        sessionId = json["sessionId"]?.nonEmptyStringValue
        modelProvider = json["modelProvider"]?.nonEmptyStringValue
        model = json["model"]?.nonEmptyStringValue
        contextTokens = json["contextTokens"]?.lenientIntValue
        totalTokens = json["totalTokens"]?.lenientIntValue
        thinkingLevel = json["thinkingLevel"]?.nonEmptyStringValue
        status = json["status"]?.stringValue.map(SessionRunStatus.init(wireValue:))
        abortedLastRun = json["abortedLastRun"]?.boolValue
        hasActiveRun = json["hasActiveRun"]?.boolValue
    }
}

/// What kind of conversation a session is.
public enum SessionKind: Sendable, Hashable {
    case direct
    case group
    case global
    case unknown
    case other(String)

    public init(wireValue: String) {
        switch wireValue {
        case "direct": self = .direct
        case "group": self = .group
        case "global": self = .global
        case "unknown": self = .unknown
        default: self = .other(wireValue)
        }
    }
}

/// The state of a session's latest run, as `sessions.list` reports it.
public enum SessionRunStatus: Sendable, Hashable {
    case running
    case done
    case failed
    case killed
    case timeout
    case other(String)

    public init(wireValue: String) {
        switch wireValue {
        case "running": self = .running
        case "done": self = .done
        case "failed": self = .failed
        case "killed": self = .killed
        case "timeout": self = .timeout
        default: self = .other(wireValue)
        }
    }
}
