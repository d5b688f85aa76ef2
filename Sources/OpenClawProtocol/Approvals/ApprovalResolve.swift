/// `approval.resolve` (summer 2026): the kind-agnostic durable resolver. Exactly upstream's closed
/// `ApprovalResolveParamsSchema`: the full id (no prefix), the owner `kind`, and the decision.
public struct ApprovalResolveParams: Sendable, Hashable {
    public static let method = ApprovalNames.resolveMethod

    public var id: String
    /// `exec` for the commands this client approves (`plugin` approvals are not handled here).
    public var kind: String
    public var decision: ExecApprovalDecision

    public init(id: String, kind: String = "exec", decision: ExecApprovalDecision) {
        self.id = id
        self.kind = kind
        self.decision = decision
    }

    public var json: JSONValue {
        ["id": .string(id), "kind": .string(kind), "decision": .string(decision.rawValue)]
    }
}

/// The answer to `approval.resolve`: whether this call's decision was the first (`applied`), and the
/// state the gateway recorded, the same for every contender.
public struct ApprovalResolveResult: Sendable, Hashable {
    /// The terminal state of the recorded approval.
    public enum Status: Sendable, Hashable {
        case allowed(ExecApprovalDecision)
        case denied
        case expired
        case cancelled
        /// A status or decision this client does not know (a newer gateway's value).
        case other(String)
    }

    public var applied: Bool
    public var status: Status

    public init(applied: Bool, status: Status) {
        self.applied = applied
        self.status = status
    }

    /// Nil when the payload is not `{applied, approval: {status, ...}}`.
    public init?(json: JSONValue?) {
        guard let json, let applied = json["applied"]?.boolValue,
            let status = json["approval"]?["status"]?.stringValue
        else { return nil }
        let decision = json["approval"]?["decision"]?.stringValue.flatMap(ExecApprovalDecision.init(rawValue:))
        switch (status, decision) {
        case ("allowed", let decision?) where decision.allowsRun:
            self.init(applied: applied, status: .allowed(decision))
        case ("denied", _): self.init(applied: applied, status: .denied)
        case ("expired", _): self.init(applied: applied, status: .expired)
        case ("cancelled", _): self.init(applied: applied, status: .cancelled)
        default: self.init(applied: applied, status: .other(status))
        }
    }

    /// The decision recorded, when a reviewer's decision closed it.
    public var decision: ExecApprovalDecision? {
        switch status {
        case .allowed(let decision): decision
        case .denied: .deny
        case .expired, .cancelled, .other: nil
        }
    }
}

/// Names of the unified approval family (summer 2026), beside ``ExecApprovalNames``.
public enum ApprovalNames {
    /// First answer wins; every caller gets the recorded state.
    public static let resolveMethod = "approval.resolve"
    /// One pending or retained approval by its full id.
    public static let getMethod = "approval.get"
    /// Terminal approvals of the last 30 days, newest first.
    public static let historyMethod = "approval.history"
}
