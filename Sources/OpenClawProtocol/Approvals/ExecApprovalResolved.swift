/// `exec.approval.resolved`: `{id, decision, resolvedBy, ts, request}` — an approver decided.
///
/// Read leniently: only `id` is required. A missing, `null` or unknown `decision` is kept as
/// ``decision`` nil (the request is closed either way; what was decided is then not known).
public struct ExecApprovalResolved: Sendable, Hashable {
    public var id: String
    public var decision: ExecApprovalDecision?
    /// The deciding client's display name or id, as the gateway names it.
    public var resolvedBy: String?
    /// Epoch milliseconds of the decision, when given.
    public var ts: Int?

    public init(id: String, decision: ExecApprovalDecision?, resolvedBy: String? = nil, ts: Int? = nil) {
        self.id = id
        self.decision = decision
        self.resolvedBy = resolvedBy
        self.ts = ts
    }

    public init?(json: JSONValue?) {
        guard let json, let id = json["id"]?.nonEmptyStringValue else { return nil }
        self.id = id
        self.decision = json["decision"]?.stringValue.flatMap(ExecApprovalDecision.init(rawValue:))
        self.resolvedBy = json["resolvedBy"]?.nonEmptyStringValue
        self.ts = WireTimestamp.epochMilliseconds(json["ts"])
    }
}
