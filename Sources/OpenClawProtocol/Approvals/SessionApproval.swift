/// Approvals as one session's audience sees them (summer 2026, `2026.7`): a client subscribed to a
/// session's messages with `includeApprovals: true` gets a bounded replay of what is pending in the
/// answer, then a `session.approval` event for each pending or terminal transition (upstream
/// `SessionApprovalEventSchema`, `SessionApprovalReplaySchema`, `docs/gateway/protocol.md`).
public enum SessionApprovalNames {
    public static let event = "session.approval"
    public static let subscribeMethod = "sessions.messages.subscribe"
    public static let unsubscribeMethod = "sessions.messages.unsubscribe"
}

/// One `session.approval` event: `{sessionKey, sourceSessionKey?, updatedAtMs, phase, approval}`, closed
/// upstream; read leniently like ``ApprovalSnapshot``.
public struct SessionApprovalEvent: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        case pending, terminal
    }

    /// The subscribed session the event is for.
    public var sessionKey: String
    /// A descendant (child) session that asked, when not the subscribed one.
    public var sourceSessionKey: String?
    public var updatedAtMs: Int
    public var phase: Phase
    public var approval: ApprovalSnapshot

    public init(
        sessionKey: String, sourceSessionKey: String? = nil, updatedAtMs: Int, phase: Phase, approval: ApprovalSnapshot
    ) {
        self.sessionKey = sessionKey
        self.sourceSessionKey = sourceSessionKey
        self.updatedAtMs = updatedAtMs
        self.phase = phase
        self.approval = approval
    }

    /// Nil without a session key, a known phase or an approval.
    public init?(json: JSONValue?) {
        guard let json, let sessionKey = json["sessionKey"]?.nonEmptyStringValue,
            let phase = json["phase"]?.stringValue.flatMap(Phase.init(rawValue:)),
            let approval = ApprovalSnapshot(json: json["approval"])
        else { return nil }
        self.sessionKey = sessionKey
        self.sourceSessionKey = json["sourceSessionKey"]?.nonEmptyStringValue
        self.updatedAtMs = WireTimestamp.epochMilliseconds(json["updatedAtMs"]) ?? 0
        self.phase = phase
        self.approval = approval
    }
}

/// What was pending for a session when it was subscribed to (`approvalReplay` of the answer). When
/// `truncated` is false the list is the whole pending set.
public struct SessionApprovalReplay: Sendable, Hashable {
    public var sessionKey: String
    public var approvals: [ApprovalSnapshot]
    public var truncated: Bool

    /// More than this many replayed approvals are not read (a gateway controls the count).
    public static let maxApprovals = 64

    public init(sessionKey: String, approvals: [ApprovalSnapshot], truncated: Bool) {
        self.sessionKey = sessionKey
        self.approvals = approvals
        self.truncated = truncated
    }

    public init?(json: JSONValue?) {
        guard let json, let sessionKey = json["sessionKey"]?.nonEmptyStringValue,
            let items = json["approvals"]?.arrayValue
        else { return nil }
        self.sessionKey = sessionKey
        self.approvals = items.prefix(Self.maxApprovals).compactMap(ApprovalSnapshot.init(json:))
        self.truncated = (json["truncated"]?.boolValue ?? true) || items.count > Self.maxApprovals
    }
}

/// `sessions.messages.subscribe {key, includeApprovals: true}` (upstream
/// `SessionsMessagesSubscribeParamsSchema`, closed; `includeApprovals` is the literal `true` or absent).
/// The opt-in needs `operator.admin`, or `operator.approvals` on a paired device; the answer carries the
/// replay (nil when the gateway's answer has none).
public struct SessionsMessagesSubscribeParams: GatewayMethod, Hashable {
    public typealias Response = SessionApprovalReplay?
    public static let method = SessionApprovalNames.subscribeMethod
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public var key: String
    public var includeApprovals: Bool

    public init(key: String, includeApprovals: Bool) {
        self.key = key
        self.includeApprovals = includeApprovals
    }

    public var json: JSONValue {
        .object(dropping: [("key", .string(key)), ("includeApprovals", includeApprovals ? .bool(true) : nil)])
    }

    public func response(from payload: JSONValue?) -> SessionApprovalReplay?? {
        .some(SessionApprovalReplay(json: payload?["approvalReplay"]))
    }
}

/// `sessions.messages.unsubscribe {key}` (closed upstream).
public struct SessionsMessagesUnsubscribeParams: GatewayMethod, Hashable {
    public typealias Response = GatewayAcknowledgement
    public static let method = SessionApprovalNames.unsubscribeMethod
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public var key: String

    public init(key: String) { self.key = key }

    public var json: JSONValue { ["key": .string(key)] }
}

extension ExecApprovalRequest {
    /// A pending exec approval as a session's audience sees it: the sanitized command text, where it
    /// runs and the decisions offered (no argv, no cwd: the gateway does not show them there).
    public init(sessionApproval approval: ApprovalSnapshot, sessionKey: String) {
        self.init(
            id: approval.id, command: approval.subject ?? "", host: approval.host, sessionKey: sessionKey,
            allowedDecisions: approval.allowedDecisions.isEmpty
                ? ExecApprovalDecision.allCases : approval.allowedDecisions,
            createdAtMs: approval.createdAtMs, expiresAtMs: approval.expiresAtMs)
    }
}
