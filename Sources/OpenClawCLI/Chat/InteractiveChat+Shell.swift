import OpenClawNode
import OpenClawProtocol

/// `!command`: see ``ShellEscape``.
extension InteractiveChat {
    func runShell(_ command: String) async {
        guard shellAllowed else {
            pendingQuestion = .allowShell(command: command)
            terminal.line(
                "Run shell commands on this computer from this chat? "
                    + terminal.styled("y", .bold) + " runs `\(TerminalText.escapedLine(command))` and allows "
                    + "the next ones until you leave; anything else cancels.")
            return
        }
        #if canImport(Subprocess)
            let shell = ShellEscape(runner: SubprocessRunner())
            let outcome: ProcessOutcome
            do {
                outcome = try await shell.run(command)
            } catch {
                terminal.error("The command could not start: \(error.message)", hint: nil)
                return
            }
            // Quitting (Ctrl-C) stops the command with the chat: nothing more to show or ask.
            guard !Task.isCancelled else { return }
            let output = ShellEscape.output(outcome)
            if !output.isEmpty { terminal.write(TerminalText.escaped(output.hasSuffix("\n") ? output : output + "\n")) }
            let failed = outcome.exitCode != 0
            terminal.line(terminal.styled("  \(ShellEscape.ending(outcome))", failed ? .yellow : .dim))
            pendingQuestion = .sendOutput(message: ShellEscape.message(command: command, outcome: outcome))
            terminal.line(
                "Send this output to the agent? " + terminal.styled("y", .bold)
                    + " sends it; anything else keeps it here.")
        #else
            terminal.line("!command is not available in this build (no process support)")
        #endif
    }

    /// The line after a question: `y` or `yes` agrees; anything else declines. A message typed instead
    /// of an answer is not sent by surprise; a slash command (`/quit`) is still carried out.
    func answer(_ question: ShellEscape.Question, with input: ChatInput) async {
        guard case .message(let text) = input, ["y", "yes"].contains(text.lowercased()) else {
            terminal.line(terminal.styled(question.declined, .dim))
            if case .local = input { await perform(input) }
            return
        }
        switch question {
        case .allowShell(let command):
            shellAllowed = true
            await runShell(command)
        case .sendOutput(let message):
            await send(message)
        }
    }
}
