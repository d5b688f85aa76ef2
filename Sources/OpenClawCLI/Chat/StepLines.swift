import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol

/// How the terminal shows the agent's steps: a finished step as one dim line (`  ✓ exec: ls -la
/// (0.4 s)`, `  ✓ thinking (2.1 s)`), the reasoning under its line when `/think show` is on, and a tool's
/// card (arguments and the start of its result) for `/tools`. The words and cuts are the app's
/// (``ActivityRow``, ``ToolCard``); everything from the gateway is escaped.
enum StepLines {
    /// The lines of a finished step. Thinking shows as `thinking` alone unless `showsThinking`: its
    /// first line is the reasoning itself, which stays hidden until asked for.
    static func finished(_ step: ActivityRow, showsThinking: Bool, terminal: Terminal) -> [String] {
        let mark = step.status == .failed ? "✗" : "✓"
        let duration = step.duration.map { " (\($0))" } ?? ""
        switch step.kind {
        case .tool:
            return [terminal.styled("  \(mark) \(TerminalText.escapedLine(step.summary))\(duration)", .dim)]
        case .thinking:
            let line = terminal.styled("  \(mark) thinking\(duration)", .dim)
            guard showsThinking, !step.thinkingText.isEmpty else { return [line] }
            return [line] + reasoning(step.thinkingText, terminal: terminal)
        }
    }

    /// `/tools`: a tool step with its arguments and result, indented under its line.
    static func card(_ step: ActivityRow, terminal: Terminal) -> [String] {
        var lines = finished(step, showsThinking: false, terminal: terminal)
        guard let card = step.card else { return lines }
        for argument in card.argumentLines {
            lines.append("      " + TerminalText.escapedLine(argument))
        }
        if let note = card.resultNote { lines.append(terminal.styled("    → (\(note))", .dim)) }
        for (index, line) in card.resultLines.enumerated() {
            let lead = index == 0 ? "    → " : "      "
            lines.append(terminal.styled(lead, .dim) + TerminalText.escapedLine(line))
        }
        if let more = card.moreLinesNote { lines.append(terminal.styled("      \(more)", .dim)) }
        return lines
    }

    /// The reasoning, dim and indented, one terminal line per line of it.
    private static func reasoning(_ text: String, terminal: Terminal) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
            terminal.styled("      " + TerminalText.escapedLine(String($0)), .dim)
        }
    }
}
