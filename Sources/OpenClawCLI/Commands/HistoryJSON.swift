import OpenClawChat
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `history --json`: one object per history message, as the gateway stored it (scripts read this; the
/// terminal prints rows: ``RowPrinter``).
enum HistoryJSON {
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
