import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol

/// Prints transcript rows as the terminal shows a conversation: `history`, and the chat's `/history`
/// and start-up summary. The rows are the app's (``MessageRow``): the same folding of tool-only
/// messages into the reply's steps, the same attachment labels, the same marks for a message not
/// delivered or a reply stopped or failed. Everything that came from the gateway is escaped.
struct RowPrinter {
    let terminal: Terminal
    /// Renders the agent's Markdown (a colour terminal); nil prints the text as it is.
    let markdown: MarkdownTerminalRenderer?
    /// `14:02 ` before each message (the `history` command; the chat's summary leaves it out).
    let showsTime: Bool

    func print(_ rows: [MessageRow]) {
        for row in rows { print(row) }
    }

    func print(_ row: MessageRow) {
        let time = showsTime ? (row.timestampMs.map(LocalTimeText.hourMinute) ?? "     ") + " " : ""
        for step in row.steps where step.status != .running {
            if case .tool = step.kind { terminal.line(RunOutput.finishedStepLine(step, terminal: terminal)) }
        }
        let text = row.text
        switch row.author {
        case .user:
            terminal.line(terminal.styled("\(time)you", .cyan) + "  " + TerminalText.escaped(text))
        case .agent where !text.isEmpty:
            if let markdown {
                terminal.line(terminal.styled("\(time)agent", .green))
                terminal.write(MarkdownOutput.render(text, with: markdown))
            } else {
                terminal.line(terminal.styled("\(time)agent", .green) + "  " + TerminalText.escaped(text))
            }
        case .agent:
            break
        case .system:
            terminal.line(terminal.styled("\(time)— \(TerminalText.escaped(text)) —", .dim))
        }
        for attachment in row.attachments {
            terminal.line("      " + terminal.styled(TerminalText.escapedLine(attachment.label), .dim))
        }
        if let badge = row.badge { terminal.line("      " + Self.mark(badge, terminal: terminal)) }
    }

    /// The badge of a row, in words.
    static func mark(_ badge: MessageRow.Badge, terminal: Terminal) -> String {
        switch badge {
        case .queued: terminal.styled("queued: sent when the gateway is back", .yellow)
        case .sending: terminal.styled("sending…", .dim)
        case .notDelivered(let reason):
            terminal.styled("not delivered: \(TerminalText.escapedLine(reason))", .red)
        case .unconfirmed: terminal.styled("delivery unknown: the gateway may or may not have it", .yellow)
        case .stopped(let reason):
            terminal.styled("stopped" + (reason.map { " (\(TerminalText.escapedLine($0)))" } ?? ""), .yellow)
        case .replyFailed(let reason): terminal.styled("failed: \(TerminalText.escapedLine(reason))", .red)
        }
    }
}
