/// An approval as the gateway recorded it (upstream `ApprovalSnapshotSchema`, summer 2026): the same
/// projection for every surface, from `approval.get`, `approval.history` and `approval.resolve`.
///
/// Upstream's union is closed, but it grows (later builds add `source`, `resolver`, a `system-agent`
/// kind), so reading keeps what a client shows and ignores the rest; only `id` and `status` are required.
public struct ApprovalSnapshot: Sendable, Hashable {
    public enum Status: Sendable, Hashable {
        case pending, allowed, denied, expired, cancelled
        /// A status this client does not know (a newer gateway's value).
        case other(String)

        public init(wire: String) {
            switch wire {
            case "pending": self = .pending
            case "allowed": self = .allowed
            case "denied": self = .denied
            case "expired": self = .expired
            case "cancelled": self = .cancelled
            default: self = .other(wire)
            }
        }

        public var wire: String {
            switch self {
            case .pending: "pending"
            case .allowed: "allowed"
            case .denied: "denied"
            case .expired: "expired"
            case .cancelled: "cancelled"
            case .other(let text): text
            }
        }
    }

    public var id: String
    public var status: Status
    /// The owner (`presentation.kind`): `exec`, `plugin`, `system-agent` ….
    public var kind: String?
    /// What was asked: an exec approval's `commandText`, a plugin approval's `title`.
    public var subject: String?
    public var decision: ExecApprovalDecision?
    /// Why it became terminal: `user`, `timeout`, `no-route`, `run-aborted` ….
    public var reason: String?
    public var createdAtMs: Int?
    public var expiresAtMs: Int?
    public var resolvedAtMs: Int?
    /// The decisions a pending approval offers (`presentation.allowedDecisions`); empty when not said.
    public var allowedDecisions: [ExecApprovalDecision] = []
    /// Where an exec approval's command runs (`presentation.host`).
    public var host: String?

    public init(
        id: String, status: Status, kind: String? = nil, subject: String? = nil, decision: ExecApprovalDecision? = nil,
        reason: String? = nil, createdAtMs: Int? = nil, expiresAtMs: Int? = nil, resolvedAtMs: Int? = nil
    ) {
        self.id = id
        self.status = status
        self.kind = kind
        self.subject = subject
        self.decision = decision
        self.reason = reason
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
        self.resolvedAtMs = resolvedAtMs
    }

    public init?(json: JSONValue?) {
        guard let json, let id = json["id"]?.nonEmptyStringValue, let status = json["status"]?.stringValue else {
            return nil
        }
        let presentation = json["presentation"]
        self.id = id
        self.status = Status(wire: status)
        self.kind = presentation?["kind"]?.nonEmptyStringValue
        self.subject = presentation?["commandText"]?.nonEmptyStringValue ?? presentation?["title"]?.nonEmptyStringValue
        self.decision = json["decision"]?.stringValue.flatMap(ExecApprovalDecision.init(rawValue:))
        self.reason = json["reason"]?.nonEmptyStringValue
        self.createdAtMs = WireTimestamp.epochMilliseconds(json["createdAtMs"])
        self.expiresAtMs = WireTimestamp.epochMilliseconds(json["expiresAtMs"])
        self.resolvedAtMs = WireTimestamp.epochMilliseconds(json["resolvedAtMs"])
        let allowed = Set(
            (presentation?["allowedDecisions"]?.arrayValue ?? []).compactMap {
                $0.stringValue.flatMap(ExecApprovalDecision.init(rawValue:))
            })
        self.allowedDecisions = ExecApprovalDecision.allCases.filter(allowed.contains)
        self.host = presentation?["host"]?.nonEmptyStringValue
    }
}

/// `approval.get {id}` (upstream `ApprovalGetParamsSchema`, closed): the exact full id.
public struct ApprovalGetParams: Sendable, Hashable {
    public static let method = ApprovalNames.getMethod
    public var id: String

    public init(id: String) { self.id = id }

    public var json: JSONValue { ["id": .string(id)] }
}

/// `approval.history` (upstream `ApprovalHistoryParamsSchema`, closed): `cursor?` (1–512 characters),
/// `limit?` (1–100), `kind?`. Answered newest first with terminal approvals of the last 30 days.
public struct ApprovalHistoryParams: Sendable, Hashable {
    public static let method = ApprovalNames.historyMethod
    public static let maxLimit = 100

    public var cursor: String?
    public var limit: Int?
    public var kind: String?

    public init(cursor: String? = nil, limit: Int? = nil, kind: String? = nil) {
        self.cursor = cursor
        self.limit = limit.map { min(max($0, 1), Self.maxLimit) }
        self.kind = kind
    }

    public var json: JSONValue {
        .object(dropping: [
            ("cursor", cursor.map(JSONValue.string)), ("limit", limit.map(JSONValue.int)),
            ("kind", kind.map(JSONValue.string)),
        ])
    }
}

/// One page of `approval.history` (upstream `ApprovalHistoryResultSchema`): `{items, nextCursor?}`.
public struct ApprovalHistoryPage: Sendable, Hashable {
    public var items: [ApprovalSnapshot]
    /// Present when older rows follow.
    public var nextCursor: String?

    /// Rows beyond this many are dropped when reading (a gateway controls the count).
    public static let maxItems = ApprovalHistoryParams.maxLimit

    public init(items: [ApprovalSnapshot], nextCursor: String? = nil) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// Nil when the payload has no `items` array.
    public init?(json: JSONValue?) {
        guard let items = json?["items"]?.arrayValue else { return nil }
        self.items = items.prefix(Self.maxItems).compactMap(ApprovalSnapshot.init(json:))
        self.nextCursor = json?["nextCursor"]?.nonEmptyStringValue
    }
}
