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
    /// Whether thinking steps show their reasoning (the chat's `/think show`).
    var showsThinking = false
    /// Whether a shortened message names `/expand N` (the chat has it; the `history` command does not).
    var offersExpand = true

    func print(_ rows: [MessageRow]) {
        for row in rows { print(row) }
    }

    func print(_ row: MessageRow) {
        let time = showsTime ? (row.timestampMs.map(LocalTimeText.hourMinute) ?? "     ") + " " : ""
        if let boundary = row.boundary {
            terminal.line(terminal.styled("\(time)──── \(boundary.text) ────", .dim))
            return
        }
        for step in row.steps where step.status != .running {
            for line in StepLines.finished(step, showsThinking: showsThinking, terminal: terminal) {
                terminal.line(line)
            }
        }
        var text = row.text
        if row.isTruncated, let kept = ChatMessage.removingTruncationMarker(from: text) { text = kept }
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
        var artifactOrdinal = 0
        for attachment in row.attachments {
            if attachment.artifactId != nil {
                artifactOrdinal += 1
                let line = SaveReference.line(message: row.expandNumber, ordinal: artifactOrdinal)
                terminal.line("      " + terminal.styled(line, .dim))
                continue
            }
            terminal.line("      " + terminal.styled(TerminalText.escapedLine(attachment.label), .dim))
        }
        if let badge = row.badge { terminal.line("      " + Self.mark(badge, terminal: terminal)) }
        if row.isTruncated {
            let hint = offersExpand ? row.expandNumber.map { "… (truncated, /expand \($0))" } : nil
            terminal.line("      " + terminal.styled(hint ?? "… (truncated)", .dim))
        }
    }

    /// The badge's shared words, coloured by how much it needs the person.
    static func mark(_ badge: MessageRow.Badge, terminal: Terminal) -> String {
        let style: Terminal.Style =
            switch badge {
            case .sending: .dim
            case .queued, .unconfirmed, .stopped: .yellow
            case .notDelivered, .replyFailed: .red
            }
        return terminal.styled(TerminalText.escapedLine(badge.text), style)
    }
}
