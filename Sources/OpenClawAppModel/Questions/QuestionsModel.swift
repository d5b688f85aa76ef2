import Observation
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// The app's agent questions: the cards (open ones answerable, closed ones locked with their outcome),
/// the answer and skip actions, and the last notice. Built on the same `QuestionsClient` as the
/// terminal; the first word wins — this phone, another surface, or the deadline.
@MainActor
@Observable
public final class QuestionsModel {
    public private(set) var cards: [QuestionCard] = []
    public private(set) var availability: QuestionAvailability
    /// The last error, one sentence; nil until something goes wrong.
    public private(set) var notice: ApprovalsModel.Notice?
    /// Cards whose answer is on its way (their controls are disabled).
    public private(set) var answering: Set<String> = []

    /// Locked cards kept, the oldest dropped first.
    public static let lockedMemory = 32

    /// The cards that can still be answered.
    public var open: [QuestionCard] { cards.filter { !$0.isLocked } }

    @ObservationIgnored public let client: QuestionsClient
    @ObservationIgnored private var relay = ClientUpdateRelay()

    public init(client: QuestionsClient) {
        self.client = client
        self.availability = client.connection.configuration.questionsEnabled ? .waiting : .off
    }

    /// Follows the client (call before the connection connects, so nothing asked is missed).
    public func start() async {
        await client.start()
        relay.relay(await client.updates(), to: self) { model, update in await model.apply(update) }
    }

    public func stop() async {
        relay.stop()
        await client.stop()
    }

    /// Answers with the chosen option labels (or typed text) per question id.
    public func answer(_ card: QuestionCard, _ answers: [String: [String]]) async {
        await act(on: card) { () async throws(QuestionError) -> ClosedQuestion in
            try await self.client.answer(card.id, QuestionAnswers(answers))
        }
    }

    /// Answers with typed text, as the terminal reads it (option numbers, a label, or free text).
    public func answer(_ card: QuestionCard, text: String) async {
        await act(on: card) { () async throws(QuestionError) -> ClosedQuestion in
            try await self.client.answer(card.id, text: text)
        }
    }

    /// Skip: the agent goes on with its own judgement.
    public func skip(_ card: QuestionCard) async {
        await act(on: card) { () async throws(QuestionError) -> ClosedQuestion in try await self.client.skip(card.id) }
    }

    public func dismissNotice() { notice = nil }

    /// Removes a locked card from view (an open one stays: it still waits for an answer).
    public func dismiss(_ card: QuestionCard) {
        cards.removeAll { $0.id == card.id && $0.isLocked }
    }

    /// What a screen shows: every open card, oldest (closest to expiry) first, and the most recently
    /// locked one, until dismissed, so a result is seen without locked cards crowding out open ones.
    public var shown: [QuestionCard] {
        open + cards.filter(\.isLocked).suffix(1)
    }

    private func act(on card: QuestionCard, _ action: () async throws(QuestionError) -> ClosedQuestion) async {
        // The card as it is now, not as the view captured it: a locked one sends nothing.
        guard cards.first(where: { $0.id == card.id })?.isLocked == false, answering.insert(card.id).inserted
        else { return }
        defer { answering.remove(card.id) }
        do {
            let closed = try await action()
            lock(closed.id, closed.outcome)
        } catch {
            if case .closed(let id, let outcome) = error { lock(id, outcome) }
            notice = ApprovalsModel.Notice(message: error.message, nextStep: error.nextStep, isError: true)
        }
    }

    func apply(_ update: QuestionUpdate) async {
        switch update {
        case .availability(let new): availability = new
        case .requested(let question):
            guard !cards.contains(where: { $0.id == question.id }) else { return }
            let queue = await client.queue
            cards.append(QuestionCard(question: question, shortId: queue.shortId(question.id), outcome: nil))
        case .closed(let closed): lock(closed.id, closed.outcome)
        }
    }

    private func lock(_ id: String, _ outcome: QuestionOutcome) {
        guard let index = cards.firstIndex(where: { $0.id == id }), cards[index].outcome == nil else { return }
        cards[index].outcome = outcome
        let locked = cards.filter(\.isLocked)
        if locked.count > Self.lockedMemory, let oldest = locked.first {
            cards.removeAll { $0.id == oldest.id }
        }
    }
}
