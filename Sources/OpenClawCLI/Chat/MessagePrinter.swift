import Foundation
import OpenClawChat
import OpenClawProtocol

/// Prints stored history messages: role, time and text, with tool calls and results on dim lines.
enum MessagePrinter {
    static func print(_ message: ChatMessage, terminal: Terminal) {
        let time = message.timestampMs.map(clock) ?? "     "
        switch message.role {
        case .user:
            terminal.line(terminal.styled("\(time) you", .cyan) + "  " + message.text)
            for row in AttachmentRow.rows(of: message) { terminal.line("      " + terminal.styled(row.label, .dim)) }
        case .assistant:
            for part in message.content {
                switch part {
                case .thinking: terminal.line(terminal.styled("\(time) (thinking)", .dim))
                case .toolCall(_, let name, let arguments):
                    terminal.line(
                        terminal.styled("\(time) → \(ToolCallSummary.line(name: name, arguments: arguments))", .dim))
                default: break
                }
            }
            if message.hasText {
                terminal.line(terminal.styled("\(time) agent", .green) + "  " + message.text)
            } else if let error = message.errorMessage {
                terminal.line(terminal.styled("\(time) agent", .red) + "  " + error)
            }
        case .toolResult:
            let mark = message.isError == true ? "✗" : "←"
            let preview = message.text.split(separator: "\n").first.map(String.init) ?? ""
            terminal.line(
                terminal.styled("\(time) \(mark) \(message.toolName ?? "tool"): \(preview.prefix(100))", .dim))
        case .system:
            terminal.line(terminal.styled("\(time) — \(message.text) —", .dim))
        default:
            terminal.line(terminal.styled("\(time) ", .dim) + message.text)
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

    private static func clock(_ ms: Int) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
