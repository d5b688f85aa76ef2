import OpenClawProtocol

/// The test gateway's exec approvals (upstream `ExecApprovalManager`): pending records, decisions,
/// expiry, and the runs waiting on them.
struct ApprovalRegistry {
    struct Record {
        let id: String
        /// The `request` object of the events.
        let request: JSONValue
        let allowed: [ExecApprovalDecision]
        let createdAtMs: Int
        let expiresAtMs: Int
        var decision: ExecApprovalDecision?
        var expired = false
        /// When it stopped being pending (decided or expired), for the unified approval snapshot.
        var resolvedAtMs: Int? = nil

        var isPending: Bool { decision == nil && !expired }
    }

    /// How an id typed by an approver resolves (upstream `lookupApprovalId`: exact, or a unique prefix).
    enum Lookup {
        case found(String)
        case ambiguous
        case none
    }

    private(set) var records: [String: Record] = [:]
    /// Allow-once approvals already spent on a forwarded `system.run`.
    var consumed: Set<String> = []
    private var waiters: [String: [CheckedContinuation<ApprovalVerdict, Never>]] = [:]

    mutating func add(_ record: Record) { records[record.id] = record }

    var pendingIds: [String] { records.values.filter(\.isPending).map(\.id).sorted() }

    func lookup(_ reference: String, pending: Bool) -> Lookup {
        if let exact = records[reference], exact.isPending == pending { return .found(exact.id) }
        let matches = records.values.filter { $0.isPending == pending && $0.id.hasPrefix(reference) }
        if matches.count == 1, let match = matches.first { return .found(match.id) }
        return matches.isEmpty ? .none : .ambiguous
    }

    mutating func wait(_ id: String, _ continuation: CheckedContinuation<ApprovalVerdict, Never>) {
        guard let record = records[id], record.isPending else {
            continuation.resume(returning: records[id].map(Self.verdict) ?? .gone)
            return
        }
        waiters[id, default: []].append(continuation)
    }

    /// Records a decision and wakes the run; false when the record is not pending.
    mutating func decide(_ id: String, _ decision: ExecApprovalDecision, by name: String?) -> Bool {
        guard var record = records[id], record.isPending else { return false }
        record.decision = decision
        record.resolvedAtMs = Int(UnixTime.nowMs())
        records[id] = record
        finish(id, decision.allowsRun ? .allowed(decision) : .denied(by: name))
        return true
    }

    /// Expires a pending record and wakes the run; false when it was not pending.
    mutating func expire(_ id: String, verdict: ApprovalVerdict = .expired) -> Bool {
        guard var record = records[id], record.isPending else { return false }
        record.expired = true
        record.resolvedAtMs = Int(UnixTime.nowMs())
        records[id] = record
        finish(id, verdict)
        return true
    }

    /// Wakes the waiters of `id` (an aborted run) without deciding anything.
    mutating func release(_ id: String) { finish(id, .gone) }

    private mutating func finish(_ id: String, _ verdict: ApprovalVerdict) {
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume(returning: verdict) }
    }

    private static func verdict(_ record: Record) -> ApprovalVerdict {
        if let decision = record.decision { return decision.allowsRun ? .allowed(decision) : .denied(by: nil) }
        return .expired
    }
}
