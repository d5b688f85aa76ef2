import OpenClawGateway
import OpenClawProtocol

/// The approvals engine of one connection: turns `exec.approval.requested` / `resolved` events into a
/// queue of pending commands with deadlines, sends decisions, and reports every change in order.
///
/// An actor so that events, decisions and deadlines change the queue in one order: whichever comes
/// first — our decision's answer, another approver's `resolved` event, or the deadline — closes a
/// request, and the rest find it closed. Errors are typed (``ApprovalError``): expired, already
/// decided elsewhere, not offered, or no `operator.approvals` (with the command that grants it).
public actor ApprovalsClient: PendingCatchUp {
    public nonisolated let connection: GatewayConnection
    public internal(set) var queue = ApprovalQueue()
    public private(set) var availability: ApprovalAvailability
    let wallClockMs: @Sendable () -> Int
    var lifetime = FollowerLifetime<ApprovalUpdate, Job>()
    /// Decisions sent and not yet answered, so the `resolved` event they cause is known as ours.
    var inFlight: [String: ExecApprovalDecision] = [:]
    /// The session whose approvals this client follows as its audience (`session.approval`), if any.
    var followedSession: String?
    /// The session subscribed to on the current socket.
    var subscribedSession: (key: String, generation: Int)?

    /// What a connect starts, each replaced by the next connect's.
    enum Job: Hashable, Sendable {
        /// `exec.approval.list`: what was asked while this client was away.
        case catchUp
        /// How the decisions in doubt ended.
        case doubtCheck
        /// The followed session's `sessions.messages.subscribe`.
        case sessionSubscription
    }

    public init(connection: GatewayConnection, wallClockMs: @escaping @Sendable () -> Int = { Int(UnixTime.nowMs()) }) {
        self.connection = connection
        self.wallClockMs = wallClockMs
        self.availability = connection.configuration.approvalsEnabled ? .waiting : .off
    }

    /// Starts following the connection's events (idempotent). Call before connecting, or at any time:
    /// a connection already up is taken as it is. ``stop()`` ends it.
    public func start() async { await startFollowing() }

    /// Follows the connection until the calling task is cancelled (or the connection is gone), then
    /// stops: for an owner whose task is the client's lifetime.
    public func run() async {
        if await runFollowing() { subscribedSession = nil }
    }

    public func stop() {
        lifetime.end()
        subscribedSession = nil
    }

    /// Every change from now on, starting with the current availability and the pending requests.
    public func updates() -> AsyncStream<ApprovalUpdate> { subscribeToUpdates() }

    var currentUpdates: [ApprovalUpdate] { [.availability(availability)] + queue.pending.map { .requested($0) } }

    var nextDeadline: ContinuousClock.Instant? { queue.nextDeadline }

    public var pending: [PendingApproval] { queue.pending }

    // MARK: - Deciding

    /// Sends `decision` for the pending request `reference` names (its id, a unique prefix, or empty
    /// when only one is pending) and returns how it closed.
    @discardableResult
    public func decide(
        _ reference: String, _ decision: ExecApprovalDecision
    ) async throws(ApprovalError) -> ClosedApproval {
        switch availability {
        case .off, .scopeRefused: throw .unavailable(availability)
        case .waiting, .active, .missingScope: break
        }
        let approval = try queue.match(reference).get()
        // Never a second decision while the first may have landed.
        if let sent = queue.inDoubt[approval.id] { throw .inDoubt(approval.id, sent) }
        guard approval.allows(decision) else {
            throw .notOffered(decision, allowed: approval.request.allowedDecisions)
        }
        inFlight[approval.id] = decision
        defer { inFlight.removeValue(forKey: approval.id) }
        // The unified resolver where the gateway lists it: it says who won instead of refusing the loser.
        let unified = await connection.session?.hello.features.methods.contains(ApprovalNames.resolveMethod) ?? false
        var lost: ApprovalResolveResult?
        do {
            if unified {
                let result = try await connection.call(ApprovalResolveParams(id: approval.id, decision: decision))
                if let result, !result.applied { lost = result }
            } else {
                _ = try await connection.call(ExecApprovalResolveParams(id: approval.id, decision: decision))
            }
        } catch {
            if Self.mayHaveLanded(error) {
                // Our own `resolved` event came before the drop: how it ended is known.
                if let outcome = queue.outcome(of: approval.id) {
                    return ClosedApproval(approval: approval, outcome: outcome)
                }
                queue.markInDoubt(approval.id, decision)
                armDeadline()
                if let session = await connection.session { checkDoubts(generation: session.generation) }
                throw .inDoubt(approval.id, decision)
            }
            throw failure(error, approval: approval)
        }
        if let lost { throw lostRace(lost, approval: approval) }
        let outcome = ApprovalOutcome.decided(decision, by: nil, byUs: true)
        if let closed = queue.close(approval.id, outcome) {
            publish(.closed(closed))
            return closed
        }
        // Our own `resolved` event came before the answer and already closed it.
        return ClosedApproval(approval: approval, outcome: queue.outcome(of: approval.id) ?? outcome)
    }

    /// What a refused or failed decision means, judged by the error's codes and the queue's state
    /// (never by the message text). Closes the request when the gateway says it is gone.
    private func failure(_ error: GatewayError, approval: PendingApproval) -> ApprovalError {
        let id = approval.id
        switch error {
        case .missingScope:
            setAvailability(.missingScope)
            return .unavailable(.missingScope)
        case .notConnected, .connectionLost:
            return .notConnected
        case .requestFailed(_, let shape):
            if let outcome = queue.outcome(of: id) {
                return outcome == .expired ? .expired(id) : .alreadyResolved(id, outcome)
            }
            let reason = shape.approvalRefusalReason
            if reason == .alreadyResolved {
                closeLocally(id, .resolvedOther(by: nil))
                return .alreadyResolved(id, nil)
            }
            if reason == .notFound || shape.code == .approvalNotFound
                || approval.deadline <= .now
            {
                closeLocally(id, .expired)
                return .expired(id)
            }
            return .gateway(error)
        default:
            return .gateway(error)
        }
    }

    /// `approval.resolve` answered `applied: false`: another decision (or the deadline) came first, and
    /// the answer says which. Closes the request with that.
    private func lostRace(_ result: ApprovalResolveResult, approval: PendingApproval) -> ApprovalError {
        if let outcome = queue.outcome(of: approval.id) {
            return outcome == .expired ? .expired(approval.id) : .alreadyResolved(approval.id, outcome)
        }
        switch result.status {
        case .expired:
            closeLocally(approval.id, .expired)
            return .expired(approval.id)
        case .allowed, .denied, .cancelled, .other:
            let outcome: ApprovalOutcome =
                result.decision.map { .decided($0, by: nil, byUs: false) } ?? .resolvedOther(by: nil)
            closeLocally(approval.id, outcome)
            return .alreadyResolved(approval.id, outcome)
        }
    }

    /// The request left and no answer came: the gateway may have applied it.
    private static func mayHaveLanded(_ error: GatewayError) -> Bool {
        switch error {
        case .connectionLost, .timeout, .cancelled: true
        default: false
        }
    }

    /// Asks the gateway how each decision in doubt ended, one after another, and reports it: still
    /// pending (``ApprovalUpdate/undelivered(_:_:)``) or closed with what is known.
    /// A new connection replaces a check still running on the old one. A question left unanswered on a
    /// connection that stays up (a slow gateway) is asked again after `pause`, doubled each time up to
    /// a minute: until it is answered the user cannot decide that request again, so it must not wait
    /// for a reconnect that may never come.
    private func checkDoubts(generation: Int, replacing: Bool = false, after pause: Duration? = nil) {
        if replacing { lifetime.cancel(.doubtCheck) } else if lifetime.isRunning(.doubtCheck) { return }
        guard !queue.inDoubt.isEmpty else { return }
        lifetime.replace(.doubtCheck) { [weak self, connection] in
            if let pause {
                try? await Task.sleep(for: pause)
                guard !Task.isCancelled else { return }
            }
            guard let doubts = await self?.queue.inDoubt.sorted(by: { $0.key < $1.key }) else { return }
            for (id, decision) in doubts {
                let finding = await DecisionCheck.ask(id, sent: decision, connection: connection)
                guard !Task.isCancelled else { return }
                await self?.apply(finding, id: id, sent: decision)
            }
            await self?.checkFinished(checked: Set(doubts.map(\.key)), generation: generation, pause: pause)
        }
    }

    /// Decisions put in doubt while a check ran are asked about at once; the ones left unanswered are
    /// asked again later on this connection, or at the next one.
    private func checkFinished(checked: Set<String>, generation: Int, pause: Duration?) async {
        lifetime.finished(.doubtCheck)
        guard !queue.inDoubt.isEmpty, await connection.session?.generation == generation else { return }
        let fresh = queue.inDoubt.keys.contains { !checked.contains($0) }
        let next = pause.map { min($0 * 2, Self.longestRecheckPause) } ?? Self.firstRecheckPause
        checkDoubts(generation: generation, after: fresh ? nil : next)
    }

    static let firstRecheckPause = Duration.seconds(1)
    static let longestRecheckPause = Duration.seconds(60)

    private func apply(_ finding: DecisionCheck, id: String, sent decision: ExecApprovalDecision) {
        guard queue.inDoubt[id] == decision else { return }
        switch finding {
        case .unanswered: return
        case .stillPending:
            _ = queue.clearDoubt(id)
            if let approval = queue.approval(id) { publish(.undelivered(approval, decision)) }
        case .recorded: closeLocally(id, .decided(decision, by: nil, byUs: true))
        case .decidedOtherwise: closeLocally(id, .resolvedOther(by: nil))
        case .gone: closeLocally(id, .undetermined(sent: decision))
        }
        armDeadline()
    }

    private func closeLocally(_ id: String, _ outcome: ApprovalOutcome) {
        if let closed = queue.close(id, outcome) { publish(.closed(closed)) }
        armDeadline()
    }

    // MARK: - Events

    func handle(_ event: GatewayEvent) {
        switch event {
        case .connected(let session): sessionStarted(session)
        case .disconnected: if availability != .off { setAvailability(.waiting) }
        case .event(let frame) where frame.event == ExecApprovalNames.requestedEvent:
            guard let request = ExecApprovalRequest(json: frame.payload) else { return }
            guard let approval = queue.receive(request, at: .now, wallClockNowMs: wallClockMs()) else {
                // Known already from the session's sanitized view: keep the full request.
                _ = queue.enrich(request)
                return
            }
            publish(.requested(approval))
            armDeadline()
        case .event(let frame) where frame.event == ExecApprovalNames.resolvedEvent:
            guard var resolved = ExecApprovalResolved(json: frame.payload) else { return }
            let ours = inFlight[resolved.id] ?? queue.inDoubt[resolved.id]
            if ours != nil, resolved.decision == ours, let decision = ours {
                resolved.decision = decision
                if let closed = queue.close(resolved.id, .decided(decision, by: resolved.resolvedBy, byUs: true)) {
                    publish(.closed(closed))
                }
            } else if let closed = queue.resolved(resolved) {
                publish(.closed(closed))
            }
            armDeadline()
        case .event(let frame) where frame.event == SessionApprovalNames.event:
            handleSessionApproval(frame.payload)
        default:
            break
        }
    }

    func sessionStarted(_ session: GatewaySession) {
        guard connection.configuration.approvalsEnabled else { return }
        if let refusal = session.scopeRefusal, refusal.scopes.contains(OperatorScope.approvals) {
            setAvailability(.scopeRefused(refusal.pairing))
        } else if session.scopes.contains(OperatorScope.approvals) || session.scopes.contains(OperatorScope.admin) {
            setAvailability(.active)
            checkDoubts(generation: session.generation, replacing: true)
            catchUp(generation: session.generation)
            subscribeToFollowedSession(session)
        } else {
            setAvailability(.missingScope)
        }
    }

    // MARK: - Catching up (`PendingCatchUp`)

    static let catchUpJob = Job.catchUp

    /// `exec.approval.list`. A gateway without it (v3 of early 2026) answers with an error: nothing to
    /// catch up on.
    static func listPending(on connection: GatewayConnection) async -> [ExecApprovalRequest]? {
        guard let items = try? await connection.call(ExecApprovalListParams()) else { return nil }
        return items.prefix(ApprovalQueue.maxPending).compactMap(ExecApprovalRequest.init(json:))
    }

    func reconcileQueue(with listed: [ExecApprovalRequest], since: ContinuousClock.Instant) -> [ApprovalUpdate] {
        let (added, withdrawn) = queue.reconcile(
            listed: listed, listedSince: since, at: .now, wallClockNowMs: wallClockMs())
        return withdrawn.map { .closed($0) } + added.map { .requested($0) }
    }

    private func setAvailability(_ new: ApprovalAvailability) {
        guard new != availability else { return }
        availability = new
        publish(.availability(new))
    }

    // MARK: - Deadlines

    func expireDue() {
        for closed in queue.expire(at: .now) { publish(.closed(closed)) }
        armDeadline()
    }
}
