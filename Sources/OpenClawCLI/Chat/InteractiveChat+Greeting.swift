import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

/// What the chat prints before the first prompt, and how it prints stored rows.
extension InteractiveChat {
    /// The first lines: where the chat is connected, what to type, the session's latest messages.
    func greet() {
        if let session = chat.connectionState.session {
            let name = chat.agentIdentity?.name.map { " — agent \(TerminalText.escapedLine($0))" } ?? ""
            terminal.line(
                terminal.styled(
                    "● connected to \(gatewayLabel) (protocol \(session.protocolVersion.rawValue))\(name)", .green)
            )
        }
        if let status = chat.connectionState.reconnectStatus {
            let summary = TerminalText.escapedLine(status.summary())
            terminal.line(terminal.styled("○ \(summary) — messages you type now are queued", .yellow))
        }
        terminal.line(terminal.styled("Type a message and press Enter. /help lists commands; Ctrl-D quits.", .dim))
        showRecentHistory()
    }

    func showRecentHistory() {
        let rows = MessageRow.rows(for: chat.messages).suffix(6)
        guard !rows.isEmpty else { return }
        terminal.line(terminal.styled("— last messages in \(currentSessionName) —", .dim))
        rowPrinter.print(Array(rows))
    }

    /// Prints rows as `/history` and the start-up summary show them (``RowPrinter``).
    var rowPrinter: RowPrinter {
        RowPrinter(
            terminal: terminal, markdown: MarkdownOutput.renderer(for: terminal), showsTime: false,
            showsThinking: replies.showsThinking)
    }
}
