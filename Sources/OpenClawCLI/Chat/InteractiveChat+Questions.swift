import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol

/// The agent's questions in the interactive chat (`--questions`): a question appears as a card between
/// messages; `/answer [ID] CHOICE` answers it (option numbers, a label, or your own words), `/skip [ID]`
/// lets the agent decide, `/questions` lists the open ones.
extension InteractiveChat {
    /// The approval and question cards' printers (those this chat has).
    func watchCards() async -> [Task<Void, Never>] {
        // The chat's session is followed as an approval audience where the gateway has one.
        [await watchApprovals(), approvals?.follow(sessionKeys: chat.currentSessionKeys()), await watchQuestions()]
            .compactMap { $0 }
    }

    /// Quitting: no more cards, and the engines stop following the connection.
    func stopCards(_ watchers: [Task<Void, Never>]) async {
        for watcher in watchers { watcher.cancel() }
        await approvals?.stop()
        await questions?.stop()
    }

    /// Prints each update as it comes; nil when this chat does not answer questions.
    func watchQuestions() async -> Task<Void, Never>? {
        guard let questions else { return nil }
        let updates = await questions.updates()
        return Task { @MainActor [weak self] in
            for await update in updates {
                guard let self, !Task.isCancelled else { return }
                await self.show(update, queue: questions.queue)
            }
        }
    }

    private func show(_ update: QuestionUpdate, queue: QuestionQueue) {
        switch update {
        case .requested(let question):
            terminal.clearStatus()
            printCard(question, queue: queue)
            prompt()
        case .closed(let closed):
            guard printedQuestionOutcomes.insert(closed.id) else { return }
            terminal.clearStatus()
            terminal.line(QuestionText.outcome(closed, shortId: String(closed.id.prefix(8)), terminal: terminal))
        case .availability(let availability):
            switch availability {
            case .active:
                terminal.line(terminal.styled("● questions on: the agent's questions appear here", .dim))
            case .unsupported:
                terminal.line(terminal.styled("● " + availability.message, .dim))
            case .scopeRefused, .missingScope: terminal.error(availability.message, hint: availability.nextStep)
            case .off, .waiting: break
            }
        }
    }

    private func printCard(_ question: PendingQuestion, queue: QuestionQueue) {
        // Questions of every session reach this chat: say which asked when it is not the one shown.
        let asking = question.record.sessionKey
        let elsewhere = asking.flatMap { chat.transcript.sessionKeys.matches($0, chat.currentSessionKey) ? nil : $0 }
        let lines = QuestionText.card(
            question, shortId: queue.shortId(question.id), askedIn: elsewhere, now: .now, terminal: terminal)
        terminal.line(lines.joined(separator: "\n"))
    }

    /// `/answer [ID] CHOICE`: the first word is taken as the id when it names a pending question (a
    /// prefix of at least four characters) or when more than one is pending.
    func answerQuestion(_ argument: String) async {
        guard let questions else {
            terminal.error(QuestionAvailability.off.message, hint: QuestionAvailability.off.nextStep)
            return
        }
        let queue = await questions.queue
        let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
        let (reference, text): (String, String)
        if let first = parts.first, queue.namesPending(first) || queue.pending.count > 1 {
            (reference, text) = (first, parts.count > 1 ? parts[1] : "")
        } else {
            (reference, text) = ("", argument)
        }
        await report { () async throws(QuestionError) -> ClosedQuestion in
            try await questions.answer(reference, text: text)
        }
    }

    /// `/skip [ID]`: no answer; the agent goes on with its own judgement.
    func skipQuestion(_ reference: String) async {
        guard let questions else {
            terminal.error(QuestionAvailability.off.message, hint: QuestionAvailability.off.nextStep)
            return
        }
        await report { () async throws(QuestionError) -> ClosedQuestion in try await questions.skip(reference) }
    }

    private func report(_ action: () async throws(QuestionError) -> ClosedQuestion) async {
        do {
            let closed = try await action()
            guard printedQuestionOutcomes.insert(closed.id) else { return }
            terminal.line(QuestionText.outcome(closed, shortId: String(closed.id.prefix(8)), terminal: terminal))
        } catch {
            if case .closed(let id, _) = error { _ = printedQuestionOutcomes.insert(id) }
            terminal.error(TerminalText.escapedLine(error.message), hint: error.nextStep)
        }
    }

    /// `/questions`: the open ones, each as its card.
    func showQuestions() async {
        guard let questions else {
            terminal.error(QuestionAvailability.off.message, hint: QuestionAvailability.off.nextStep)
            return
        }
        let queue = await questions.queue
        if queue.pending.isEmpty { terminal.line("no question is waiting for an answer") }
        for question in queue.pending { printCard(question, queue: queue) }
    }
}
