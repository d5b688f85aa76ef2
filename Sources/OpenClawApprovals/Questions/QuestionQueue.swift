import OpenClawProtocol

/// The agent's questions this client knows about: pending ones in arrival order, and recently closed
/// ones (bounded), so that a late duplicate of a request or of its resolution changes nothing.
///
/// Pure and synchronous: `QuestionsClient` feeds it events and the clock; tests feed it directly.
/// The first word closes a question — our answer's reply, another surface's `resolved` event, or the
/// deadline — and every later word about it is ignored.
public struct QuestionQueue: Sendable {
    public private(set) var pending: [PendingQuestion] = []
    private var closed: [String: QuestionOutcome] = [:]
    private var closedOrder: [String] = []

    /// At most this many pending questions are held; more are ignored (a gateway controls the count).
    public static let maxPending = 64
    /// How many closed ids are remembered.
    public static let closedMemory = 256

    public init() {}

    /// A new question; nil when it is already pending or closed (a duplicate), not pending by its own
    /// record, or the queue is full.
    public mutating func receive(
        _ record: QuestionRecord, at now: ContinuousClock.Instant, wallClockNowMs: Int
    ) -> PendingQuestion? {
        guard record.status == .pending, closed[record.id] == nil, !pending.contains(where: { $0.id == record.id }),
            pending.count < Self.maxPending
        else { return nil }
        let question = PendingQuestion(record: record, receivedAt: now, wallClockNowMs: wallClockNowMs)
        pending.append(question)
        return question
    }

    /// Closes a pending question; nil when it is not pending.
    public mutating func close(_ id: String, _ outcome: QuestionOutcome) -> ClosedQuestion? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        let question = pending.remove(at: index)
        remember(id, outcome)
        return ClosedQuestion(question: question, outcome: outcome)
    }

    /// Closes every question whose deadline has passed at `now`.
    public mutating func expire(at now: ContinuousClock.Instant) -> [ClosedQuestion] {
        pending.filter { $0.deadline <= now }.compactMap { close($0.id, .expired) }
    }

    /// After a (re)connect, the gateway's pending questions: adds those missed (unless closed
    /// meanwhile) and withdraws those it no longer has that arrived before `listedSince` (one that
    /// arrived after the list was asked for is kept: the list may predate it).
    public mutating func reconcile(
        listed: [QuestionRecord], listedSince: ContinuousClock.Instant, at now: ContinuousClock.Instant,
        wallClockNowMs: Int
    ) -> (added: [PendingQuestion], withdrawn: [ClosedQuestion]) {
        let listedIds = Set(listed.map(\.id))
        let stale = pending.filter { !listedIds.contains($0.id) && $0.receivedAt < listedSince }
        let withdrawn = stale.compactMap { close($0.id, .withdrawn) }
        let added = listed.compactMap { receive($0, at: now, wallClockNowMs: wallClockNowMs) }
        return (added, withdrawn)
    }

    /// The earliest deadline of a pending question.
    public var nextDeadline: ContinuousClock.Instant? { pending.map(\.deadline).min() }

    /// How a closed question ended; nil when it is pending or unknown.
    public func outcome(of id: String) -> QuestionOutcome? { closed[id] }

    public func question(_ id: String) -> PendingQuestion? { pending.first { $0.id == id } }

    /// The pending question a person means by `reference`: its id, a unique prefix of it, or nothing at
    /// all when exactly one is pending. A closed one is named as such.
    public func match(_ reference: String) -> Result<PendingQuestion, QuestionError> {
        switch PendingIDs.resolve(reference, pending: pending.map(\.id), closed: closedOrder) {
        case .pending(let index): return .success(pending[index])
        case .nothingPending: return .failure(.nothingPending)
        case .ambiguous(let wanted, let candidates): return .failure(.ambiguous(wanted, candidates: candidates))
        case .closed(let id):
            guard let outcome = closed[id] else { return .failure(.notFound(id)) }
            return .failure(.closed(id, outcome))
        case .notFound(let wanted): return .failure(.notFound(wanted))
        }
    }

    /// Whether `word` names exactly one pending question by a prefix of at least `minimum` characters
    /// (so `/answer ID …` can be told from `/answer free text` when one question is pending).
    public func namesPending(_ word: String, minimum: Int = 4) -> Bool {
        word.count >= minimum && pending.filter { $0.id.hasPrefix(word) }.count == 1
    }

    /// The shortest prefix (at least `minimum` characters) that names `id` among the pending questions.
    public func shortId(_ id: String, minimum: Int = 8) -> String {
        PendingIDs.shortest(id, among: pending.map(\.id), minimum: minimum)
    }

    private mutating func remember(_ id: String, _ outcome: QuestionOutcome) {
        if closed.updateValue(outcome, forKey: id) == nil { closedOrder.append(id) }
        if closedOrder.count > Self.closedMemory {
            closed.removeValue(forKey: closedOrder.removeFirst())
        }
    }
}
