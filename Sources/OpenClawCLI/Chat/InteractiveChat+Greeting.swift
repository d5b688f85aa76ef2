import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

/// What the chat prints before the first prompt, and how it prints stored rows.
extension InteractiveChat {
    /// The first lines: where the chat is connected, what to type, the session's latest messages — but not
    /// the replies to `followed` runs, which are printed whole as they come (a reply still streaming would
    /// stand cut where it was, and then be printed again).
    func greet(leavingOutRepliesTo followed: Set<String> = []) {
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
        showRecentHistory(leavingOutRepliesTo: followed)
    }

    /// Of the messages an earlier session queued (`ids`, oldest first), those of this session whose run
    /// has not ended: still queued, or delivered and not answered yet.
    func unfinishedRuns(of ids: [String]) -> [String] {
        let session = chat.currentSessionKey
        return ids.filter { id in
            if let queued = chat.outbox.first(where: { $0.id == id }) {
                return queued.sessionKey == session && !queued.state.isFailed
            }
            return chat.transcript.entry(id: id) != nil && chat.transcript.outcome(ofRun: id) == nil
        }
    }

    func showRecentHistory(leavingOutRepliesTo followed: Set<String> = []) {
        let entries = chat.messages.filter { entry in
            entry.role == .user || !(entry.runId.map(followed.contains) ?? false)
        }
        let rows = MessageRow.rows(for: entries).suffix(6)
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
