import OpenClawProtocol

/// The approvals this client knows about: pending ones by id in arrival order, and recently closed
/// ones (bounded), so that a late duplicate of a request or of its resolution changes nothing.
///
/// Pure and synchronous: ``ApprovalsClient`` feeds it events and the clock; tests feed it directly.
/// Whoever comes first closes a request — our decision's answer, another approver's `resolved`
/// event, or the deadline — and every later word about it is ignored.
public struct ApprovalQueue: Sendable {
    public private(set) var pending: [PendingApproval] = []
    /// Pending requests whose decision left but whose answer never came (the connection dropped, the
    /// request timed out), with that decision. It may have landed, so until the gateway is asked they
    /// neither expire here nor are withdrawn by a list, and no second decision is sent for them.
    public private(set) var inDoubt: [String: ExecApprovalDecision] = [:]
    private var closed: [String: ApprovalOutcome] = [:]
    private var closedOrder: [String] = []

    /// At most this many pending requests are held; more are ignored (a gateway controls the count).
    public static let maxPending = 256
    /// How many closed ids are remembered.
    public static let closedMemory = 512

    public init() {}

    /// A new request; nil when it is already pending or closed (a duplicate event) or the queue is full.
    public mutating func receive(
        _ request: ExecApprovalRequest, at now: ContinuousClock.Instant, wallClockNowMs: Int
    ) -> PendingApproval? {
        guard closed[request.id] == nil, !pending.contains(where: { $0.id == request.id }),
            pending.count < Self.maxPending
        else { return nil }
        let approval = PendingApproval(request: request, receivedAt: now, wallClockNowMs: wallClockNowMs)
        pending.append(approval)
        return approval
    }

    /// A pending request first known from a session's sanitized view (`session.approval`: the command
    /// text only) takes the full request when its `exec.approval.requested` comes after, so what is shown
    /// in full (`/approvals ID`, the app's sheet) is the whole command; its deadline stays. Nil when
    /// nothing changed.
    public mutating func enrich(_ request: ExecApprovalRequest) -> PendingApproval? {
        guard let index = pending.firstIndex(where: { $0.id == request.id }),
            pending[index].request.argv.isEmpty, !request.argv.isEmpty
        else { return nil }
        pending[index] = PendingApproval(enriching: pending[index], with: request)
        return pending[index]
    }

    /// An approver decided (the gateway's `exec.approval.resolved`).
    public mutating func resolved(_ event: ExecApprovalResolved) -> ClosedApproval? {
        let outcome: ApprovalOutcome =
            event.decision.map { .decided($0, by: event.resolvedBy, byUs: false) }
            ?? .resolvedOther(by: event.resolvedBy)
        return close(event.id, outcome)
    }

    /// Closes a pending request; nil when it is not pending.
    public mutating func close(_ id: String, _ outcome: ApprovalOutcome) -> ClosedApproval? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        let approval = pending.remove(at: index)
        inDoubt.removeValue(forKey: id)
        remember(id, outcome)
        return ClosedApproval(approval: approval, outcome: outcome)
    }

    /// Marks a pending request's decision as sent and unanswered (see ``inDoubt``).
    public mutating func markInDoubt(_ id: String, _ decision: ExecApprovalDecision) {
        guard pending.contains(where: { $0.id == id }) else { return }
        inDoubt[id] = decision
    }

    /// The gateway says the request still waits: the decision did not land. Returns it.
    public mutating func clearDoubt(_ id: String) -> ExecApprovalDecision? {
        inDoubt.removeValue(forKey: id)
    }

    /// Closes every request whose deadline has passed at `now` (not one in doubt: its decision may
    /// have landed before the deadline, and only the gateway can say).
    public mutating func expire(at now: ContinuousClock.Instant) -> [ClosedApproval] {
        let due = pending.filter { $0.deadline <= now && inDoubt[$0.id] == nil }
        return due.compactMap { close($0.id, .expired) }
    }

    /// After a reconnect, the gateway's list of pending requests: adds those missed (unless closed
    /// meanwhile) and withdraws those it no longer has that arrived before `listedSince` (a request
    /// that arrived after the list was asked for is kept: the list may predate it). One in doubt is
    /// kept too: "not listed" would read as decided elsewhere, when the decision may be ours.
    public mutating func reconcile(
        listed: [ExecApprovalRequest], listedSince: ContinuousClock.Instant, at now: ContinuousClock.Instant,
        wallClockNowMs: Int
    ) -> (added: [PendingApproval], withdrawn: [ClosedApproval]) {
        let listedIds = Set(listed.map(\.id))
        let stale = pending.filter {
            !listedIds.contains($0.id) && $0.receivedAt < listedSince && inDoubt[$0.id] == nil
        }
        let withdrawn = stale.compactMap { close($0.id, .withdrawn) }
        let added = listed.compactMap { receive($0, at: now, wallClockNowMs: wallClockNowMs) }
        return (added, withdrawn)
    }

    /// The earliest deadline of a pending request.
    public var nextDeadline: ContinuousClock.Instant? {
        pending.filter { inDoubt[$0.id] == nil }.map(\.deadline).min()
    }

    /// How a closed request ended; nil when it is pending or unknown.
    public func outcome(of id: String) -> ApprovalOutcome? { closed[id] }

    public func approval(_ id: String) -> PendingApproval? { pending.first { $0.id == id } }

    /// The pending request a person means by `reference`: its id, a unique prefix of it, or nothing at
    /// all when exactly one request is pending. A closed one is named as such.
    public func match(_ reference: String) -> Result<PendingApproval, ApprovalError> {
        switch PendingIDs.resolve(reference, pending: pending.map(\.id), closed: closedOrder) {
        case .pending(let index): return .success(pending[index])
        case .nothingPending: return .failure(.nothingPending)
        case .ambiguous(let wanted, let candidates): return .failure(.ambiguous(wanted, candidates: candidates))
        case .closed(let id):
            guard let outcome = closed[id] else { return .failure(.notFound(id)) }
            return .failure(outcome == .expired ? .expired(id) : .alreadyResolved(id, outcome))
        case .notFound(let wanted): return .failure(.notFound(wanted))
        }
    }

    /// The shortest prefix (at least `minimum` characters) that names `id` among the pending requests.
    public func shortId(_ id: String, minimum: Int = 8) -> String {
        PendingIDs.shortest(id, among: pending.map(\.id), minimum: minimum)
    }

    private mutating func remember(_ id: String, _ outcome: ApprovalOutcome) {
        if closed.updateValue(outcome, forKey: id) == nil { closedOrder.append(id) }
        if closedOrder.count > Self.closedMemory {
            closed.removeValue(forKey: closedOrder.removeFirst())
        }
    }
}
