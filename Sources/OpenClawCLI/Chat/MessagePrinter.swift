import Foundation
import OpenClawChat
import OpenClawProtocol

/// Prints stored history messages: role, time and text, with tool calls and results on dim lines.
/// Everything the gateway stored is escaped (``TerminalText``).
enum MessagePrinter {
    /// `markdown` renders the agent's text (a colour terminal); without it the text is printed as it is.
    static func print(_ message: ChatMessage, terminal: Terminal, markdown: MarkdownTerminalRenderer? = nil) {
        let time = message.timestampMs.map(LocalTimeText.hourMinute) ?? "     "
        switch message.role {
        case .user:
            terminal.line(terminal.styled("\(time) you", .cyan) + "  " + TerminalText.escaped(message.text))
            for row in AttachmentRow.rows(of: message) { terminal.line("      " + terminal.styled(row.label, .dim)) }
        case .assistant:
            for part in message.content {
                switch part {
                case .thinking: terminal.line(terminal.styled("\(time) (thinking)", .dim))
                case .toolCall(_, let name, let arguments):
                    let summary = TerminalText.escapedLine(ToolCallSummary.line(name: name, arguments: arguments))
                    terminal.line(terminal.styled("\(time) → \(summary)", .dim))
                default: break
                }
            }
            if message.hasText, let markdown {
                terminal.line(terminal.styled("\(time) agent", .green))
                terminal.write(MarkdownOutput.render(message.text, with: markdown))
            } else if message.hasText {
                terminal.line(terminal.styled("\(time) agent", .green) + "  " + TerminalText.escaped(message.text))
            } else if let error = message.errorMessage {
                terminal.line(terminal.styled("\(time) agent", .red) + "  " + TerminalText.escaped(error))
            }
        case .toolResult:
            let mark = message.isError == true ? "✗" : "←"
            let preview = TerminalText.escapedLine(message.text.split(separator: "\n").first.map(String.init) ?? "")
            let tool = TerminalText.escapedLine(message.toolName ?? "tool")
            terminal.line(terminal.styled("\(time) \(mark) \(tool): \(preview.prefix(100))", .dim))
        case .system:
            terminal.line(terminal.styled("\(time) — \(TerminalText.escaped(message.text)) —", .dim))
        default:
            terminal.line(terminal.styled("\(time) ", .dim) + TerminalText.escaped(message.text))
        }
    }

    static func json(_ message: ChatMessage) -> JSONValue {
        .object(dropping: [
            ("role", .string(message.role.wireValue)), ("text", .string(message.text)),
            ("timestamp", .int(message.timestampMs)), ("id", .string(message.entry?.id)),
            ("stopReason", .string(message.stopReason)), ("errorMessage", .string(message.errorMessage)),
            ("attachments", attachments(AttachmentRow.rows(of: message))),
        ])
    }

    /// Each attachment as `{type, fileName?, mimeType?, size?, url?}`; nil (left out) when there are none.
    static func attachments(_ rows: [AttachmentRow]) -> JSONValue? {
        guard !rows.isEmpty else { return nil }
        return .array(
            rows.map { row in
                var url: String?
                if case .url(let link) = row.availability { url = link }
                return .object(dropping: [
                    ("type", .string(row.isImage ? "image" : "file")), ("fileName", .string(row.fileName)),
                    ("mimeType", .string(row.mimeType)), ("size", .int(row.size)), ("url", .string(url)),
                ])
            })
    }

}
