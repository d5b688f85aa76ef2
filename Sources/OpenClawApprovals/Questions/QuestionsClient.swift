import OpenClawGateway
import OpenClawProtocol

/// The agent's questions on one connection: turns `question.requested` / `question.resolved` events
/// into a queue of cards with deadlines, answers or skips them (`question.resolve`), and reports every
/// change in order.
///
/// An actor so that events, answers and deadlines change the queue in one order: the first word —
/// our answer's reply, another surface's `resolved` event, or the deadline — closes a card, and the
/// rest find it closed. After every connect it asks `question.list` (when `hello-ok` lists it) for
/// what was asked while it was away; a gateway without the methods leaves it idle (``QuestionAvailability/unsupported``).
public actor QuestionsClient: PendingCatchUp {
    public nonisolated let connection: GatewayConnection
    public private(set) var queue = QuestionQueue()
    public private(set) var availability: QuestionAvailability
    private let wallClockMs: @Sendable () -> Int
    var lifetime = FollowerLifetime<QuestionUpdate, Job>()
    /// Answers sent and not yet replied to, so the `resolved` event they cause is known as ours.
    private var inFlight: Set<String> = []

    public init(connection: GatewayConnection, wallClockMs: @escaping @Sendable () -> Int = { Int(UnixTime.nowMs()) }) {
        self.connection = connection
        self.wallClockMs = wallClockMs
        self.availability = connection.configuration.questionsEnabled ? .waiting : .off
    }

    /// What a connect starts, replaced by the next connect's.
    enum Job: Hashable, Sendable {
        /// `question.list`: what was asked while this client was away.
        case catchUp
    }

    /// Starts following the connection's events (idempotent). A connection already up is taken as is.
    /// ``stop()`` ends it.
    public func start() async { await startFollowing() }

    /// Follows the connection until the calling task is cancelled (or the connection is gone), then
    /// stops: for an owner whose task is the client's lifetime.
    public func run() async { await runFollowing() }

    public func stop() { lifetime.end() }

    /// Every change from now on, starting with the current availability and the pending questions.
    public func updates() -> AsyncStream<QuestionUpdate> { subscribeToUpdates() }

    var currentUpdates: [QuestionUpdate] { [.availability(availability)] + queue.pending.map { .requested($0) } }

    var nextDeadline: ContinuousClock.Instant? { queue.nextDeadline }

    public var pending: [PendingQuestion] { queue.pending }

    // MARK: - Answering

    /// Answers the pending question `reference` names (its id, a unique prefix, or empty when only one
    /// is pending) and returns how it closed.
    @discardableResult
    public func answer(_ reference: String, _ answers: QuestionAnswers) async throws(QuestionError) -> ClosedQuestion {
        let question = try usable(reference)
        return try await resolve(question, .answer(id: question.id, answers))
    }

    /// Answers with typed text (``QuestionAnswerText``): option numbers, a label, or free text.
    @discardableResult
    public func answer(_ reference: String, text: String) async throws(QuestionError) -> ClosedQuestion {
        let question = try usable(reference)
        let answers = try QuestionAnswerText.answers(text, for: question.record).get()
        return try await resolve(question, .answer(id: question.id, answers))
    }

    /// Skips the question (`cancel: true`): the agent goes on with its own judgement.
    @discardableResult
    public func skip(_ reference: String) async throws(QuestionError) -> ClosedQuestion {
        let question = try usable(reference)
        return try await resolve(question, .cancel(id: question.id))
    }

    private func usable(_ reference: String) throws(QuestionError) -> PendingQuestion {
        switch availability {
        case .off, .unsupported, .scopeRefused: throw .unavailable(availability)
        case .waiting, .active, .missingScope: break
        }
        return try queue.match(reference).get()
    }

    private func resolve(
        _ question: PendingQuestion, _ params: QuestionResolveParams
    ) async throws(QuestionError)
        -> ClosedQuestion
    {
        let id = question.id
        inFlight.insert(id)
        defer { inFlight.remove(id) }
        let reply: JSONValue?
        do {
            reply = try await connection.call(params)
        } catch {
            if let outcome = queue.outcome(of: id) { throw .closed(id, outcome) }
            switch error {
            case .missingScope:
                setAvailability(.missingScope)
                throw .unavailable(.missingScope)
            case .notConnected: throw .notConnected
            case .connectionLost, .timeout, .cancelled: throw .unanswered(id)
            case .requestFailed(_, let shape):
                // Refused by `details.reason` (upstream's `QuestionManagerErrorCodes`), never by text.
                let reason = shape.details?["reason"]?.stringValue
                if reason == QuestionRefusal.invalidAnswer { throw .invalidAnswer(shape.message) }
                // Answered first elsewhere, skipped or expired: the recorded state says which
                // (upstream keeps a terminal record for a while after it closes).
                if let recorded = await recordedOutcome(id) {
                    closeLocally(id, recorded)
                    throw .closed(id, recorded)
                }
                if reason == QuestionRefusal.notFound || reason == QuestionRefusal.alreadyTerminal {
                    closeLocally(id, .withdrawn)
                    throw .closed(id, .withdrawn)
                }
                throw .gateway(error)
            default: throw .gateway(error)
            }
        }
        let outcome =
            QuestionResolved(json: reply, id: id).map { QuestionOutcome($0, byUs: true) }
            ?? {
                switch params {
                case .answer(_, let answers): .answered(answers, byUs: true)
                case .cancel: .cancelled(byUs: true)
                }
            }()
        if let closed = queue.close(id, outcome) {
            publish(.closed(closed))
            armDeadline()
            return closed
        }
        // Our own `resolved` event came before the reply and already closed it.
        return ClosedQuestion(question: question, outcome: queue.outcome(of: id) ?? outcome)
    }

    /// How the gateway recorded `id` (`question.get`), when it is terminal; nil while pending or
    /// unknown (the gateway forgets terminal records after a grace period).
    private func recordedOutcome(_ id: String) async -> QuestionOutcome? {
        guard await connection.session?.hello.features.methods.contains(QuestionNames.getMethod) == true,
            let record = try? await connection.call(QuestionGetParams(id: id)), record.status != .pending
        else { return nil }
        return QuestionOutcome(QuestionResolved(id: id, status: record.status, answers: record.answers), byUs: false)
    }

    private func closeLocally(_ id: String, _ outcome: QuestionOutcome) {
        if let closed = queue.close(id, outcome) { publish(.closed(closed)) }
        armDeadline()
    }

    // MARK: - Events

    func handle(_ event: GatewayEvent) {
        switch event {
        case .connected(let session): sessionStarted(session)
        case .disconnected: if availability != .off { setAvailability(.waiting) }
        case .event(let frame) where frame.event == QuestionNames.requestedEvent:
            guard availability != .off, let record = QuestionRecord(json: frame.payload),
                let question = queue.receive(record, at: .now, wallClockNowMs: wallClockMs())
            else { return }
            publish(.requested(question))
            armDeadline()
        case .event(let frame) where frame.event == QuestionNames.resolvedEvent:
            guard let resolved = QuestionResolved(json: frame.payload) else { return }
            let ours = inFlight.contains(resolved.id)
            if let closed = queue.close(resolved.id, QuestionOutcome(resolved, byUs: ours)) { publish(.closed(closed)) }
            armDeadline()
        default:
            break
        }
    }

    func sessionStarted(_ session: GatewaySession) {
        guard connection.configuration.questionsEnabled else { return }
        let methods = session.hello.features.methods
        if let refusal = session.scopeRefusal, refusal.scopes.contains(OperatorScope.questions) {
            setAvailability(.scopeRefused(refusal.pairing))
        } else if !methods.contains(QuestionNames.resolveMethod) {
            setAvailability(.unsupported)
        } else if session.scopes.contains(OperatorScope.questions) || session.scopes.contains(OperatorScope.admin) {
            setAvailability(.active)
            if methods.contains(QuestionNames.listMethod) { catchUp(generation: session.generation) }
        } else {
            setAvailability(.missingScope)
        }
    }

    // MARK: - Catching up (`PendingCatchUp`)

    static let catchUpJob = Job.catchUp

    /// `question.list` (asked only where `hello-ok` lists it).
    static func listPending(on connection: GatewayConnection) async -> [QuestionRecord]? {
        guard let items = try? await connection.call(QuestionListParams()) else { return nil }
        return items.prefix(QuestionQueue.maxPending).compactMap(QuestionRecord.init(json:))
    }

    func reconcileQueue(with listed: [QuestionRecord], since: ContinuousClock.Instant) -> [QuestionUpdate] {
        let (added, withdrawn) = queue.reconcile(
            listed: listed.filter { $0.status == .pending }, listedSince: since, at: .now,
            wallClockNowMs: wallClockMs())
        return withdrawn.map { .closed($0) } + added.map { .requested($0) }
    }

    private func setAvailability(_ new: QuestionAvailability) {
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
