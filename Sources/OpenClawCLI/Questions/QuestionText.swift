import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol

/// How the terminal shows the agent's questions and how they ended. Every string in a card came from
/// the agent (the question, the header, the options, the id): each goes through `TerminalText`, so
/// an escape sequence in a question is shown as `^[…`, never obeyed; our styling is added afterwards.
enum QuestionText {
    /// The card's lines: a header with the id, the session that asked when it is not this chat's
    /// (`askedIn`), and the countdown, each question with its numbered options, and how to answer.
    static func card(
        _ question: PendingQuestion, shortId: String, askedIn otherSession: String? = nil,
        now: ContinuousClock.Instant, terminal: Terminal
    ) -> [String] {
        let shortId = TerminalText.escapedLine(shortId)
        let from = otherSession.map { "question from the agent in " + TerminalText.escapedLine($0) }
        var lines = [
            terminal.styled(from ?? "question from the agent", .yellow) + "  " + terminal.styled(shortId, .bold)
                + "  " + terminal.styled("expires in \(question.countdown(at: now))", .dim)
        ]
        for (index, asked) in question.questions.enumerated() {
            let header = TerminalText.escapedLine(asked.header.isEmpty ? asked.questionId : asked.header)
            let prefix = question.questions.count > 1 ? "\(index + 1). " : ""
            lines.append(
                "  " + prefix + terminal.styled(header, .bold) + "  " + TerminalText.escapedLine(asked.question))
            for (number, option) in asked.options.enumerated() {
                var line = "     \(number + 1)) " + TerminalText.escapedLine(option.label)
                if let description = option.description {
                    line += terminal.styled(" — " + TerminalText.escapedLine(description), .dim)
                }
                lines.append(line)
            }
            var kinds: [String] = []
            if asked.multiSelect { kinds.append("choose one or more (1,3)") }
            if asked.acceptsFreeText {
                kinds.append(
                    asked.options.isEmpty ? "type your answer" : "or type your own (in \"quotes\" if a number)")
            }
            if asked.isSecret { kinds.append("the answer is secret: typed text is echoed here") }
            if !kinds.isEmpty { lines.append(terminal.styled("     " + kinds.joined(separator: " · "), .dim)) }
        }
        let separated = question.questions.count > 1 ? " (one answer per question, separated by ;)" : ""
        lines.append(
            terminal.styled("  /answer \(shortId) CHOICE\(separated) · /skip \(shortId) to let the agent decide", .dim))
        return lines
    }

    static func outcome(_ closed: ClosedQuestion, shortId: String, terminal: Terminal) -> String {
        let shortId = TerminalText.escapedLine(shortId)
        switch closed.outcome {
        case .answered(let answers, let byUs):
            let shown = closed.question.questions.map { asked in
                let values = asked.isSecret ? ["(secret)"] : answers.answers[asked.questionId] ?? []
                return values.map(TerminalText.escapedLine).joined(separator: ", ")
            }
            let who = byUs ? "you" : "elsewhere"
            return terminal.styled("✓", .green) + " question \(shortId) answered by \(who): "
                + shown.joined(separator: "; ")
        case .cancelled(let byUs):
            return "• question \(shortId) " + (byUs ? "skipped: the agent decides" : "was skipped or its run stopped")
        case .expired:
            return terminal.styled("⌛ question \(shortId) expired: the agent goes on without an answer", .yellow)
        case .withdrawn:
            return "• question \(shortId) is no longer waiting (resolved elsewhere while offline)"
        case .other(let status):
            return "• question \(shortId) closed (\(TerminalText.escapedLine(status)))"
        }
    }
}
