import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// The agent's questions in the interactive chat (`--questions`): a question appears as a card between
/// messages; `/answer [ID] CHOICE` answers it (option numbers, a label, or your own words), `/skip [ID]`
/// lets the agent decide, `/questions` lists the open ones.
extension InteractiveChat {
    /// The approval and question cards' printers (those this chat has), as children of the chat's group.
    func followCards(in group: inout DiscardingTaskGroup) async {
        if let approvals {
            let updates = await approvals.updates()
            addChild(to: &group) { await self.show(updates, of: approvals) }
            // The chat's session is followed as an approval audience where the gateway has one.
            let sessionKeys = chat.currentSessionKeys()
            addChild(to: &group) { await approvals.follow(sessionKeys: sessionKeys).endsWithCaller() }
        }
        if let questions {
            let updates = await questions.updates()
            addChild(to: &group) { await self.show(updates, of: questions) }
        }
    }

    /// Prints each of `updates` as it comes, until cancelled.
    func show(_ updates: AsyncStream<QuestionUpdate>, of questions: QuestionsClient) async {
        for await update in updates {
            guard !Task.isCancelled else { return }
            show(update, queue: await questions.queue)
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
