import OpenClawChat

/// What a terminal reads of a streaming reply row to print it piece by piece.
protocol StreamedReplyText {
    var id: String { get }
    /// Changes only when the text was replaced rather than extended.
    var textRevision: Int { get }
    var textUTF8Count: Int { get }
    /// The whole text, materialised: read only when the row or its revision changed.
    var text: String { get }
    /// The text after `offset` UTF-8 bytes, costing only the length of the result.
    func text(fromUTF8Offset offset: Int) -> String
}

extension TranscriptEntry: StreamedReplyText {}

/// What to print next of a reply.
enum ReplyTextChange: Equatable {
    /// New text after what was printed.
    case append(String)
    /// The text changed under what was printed (a v4 `replace`, history's differing copy): start over.
    case rewrite(String)
}

/// Remembers what of a reply the terminal has printed, so that following a reply costs only its new
/// bytes: while the row and its text revision stay, the next piece is read from the printed length
/// (``StreamedReplyText/text(fromUTF8Offset:)``); only another row or a new revision makes it read
/// and compare the whole text, once. (The reducer keeps the revision for v3's cumulative snapshots
/// that merely extend the text, so a v3 reply streams as appends too.)
struct ReplyTextTracker {
    private var printed = ""
    private var rowID: String?
    private var revision = 0

    var hasPrinted: Bool { !printed.isEmpty }
    /// Whether the printed text stops mid-line (the terminal needs a newline after it).
    var endsMidLine: Bool { !printed.isEmpty && !printed.hasSuffix("\n") }

    /// What to print for the reply as it is now; nil when nothing changed.
    mutating func update(_ reply: some StreamedReplyText) -> ReplyTextChange? {
        if reply.id != rowID || reply.textRevision != revision {
            rowID = reply.id
            revision = reply.textRevision
            let full = reply.text
            if full.utf8.starts(with: printed.utf8) {
                return append(String(decoding: full.utf8.dropFirst(printed.utf8.count), as: UTF8.self))
            }
            printed = full
            return .rewrite(full)
        }
        guard reply.textUTF8Count > printed.utf8.count else { return nil }
        return append(reply.text(fromUTF8Offset: printed.utf8.count))
    }

    private mutating func append(_ chunk: String) -> ReplyTextChange? {
        guard !chunk.isEmpty else { return nil }
        printed += chunk
        return .append(chunk)
    }
}
