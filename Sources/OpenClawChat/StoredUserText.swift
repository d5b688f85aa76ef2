import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A user message's text as `chat.history` shows it, for matching a local send against it: whole,
/// cut at `maxChars` (12,000 characters unless asked otherwise; the cut ends in a marker), or
/// replaced by a placeholder when the message was over 128 KiB. A long paste is therefore recognised
/// by the part history shows, never required to match in full.
struct StoredUserText: Sendable {
    private enum Form: Sendable {
        case whole(String)
        /// The kept part, as Unicode scalars in NFC, without its last two scalars: the gateway cuts
        /// by UTF-16 units, which may split a character or a surrogate pair.
        case prefix([Unicode.Scalar])
        case placeholder
    }

    /// The marker the gateway appends to a cut text.
    static let truncationMarker = "\n...(truncated)..."

    private let form: Form

    init(_ message: ChatMessage) {
        let text = message.text
        if message.entry?.truncated == true {
            form = .placeholder
        } else if text.hasSuffix(Self.truncationMarker) {
            let kept = Transcript.comparableText(String(text.dropLast(Self.truncationMarker.count)))
            form = .prefix(Array(kept.canonicallyComposed.unicodeScalars.dropLast(2)))
        } else {
            form = .whole(Transcript.comparableText(text))
        }
    }

    /// Whether a local send whose ``Transcript/comparableText(_:)`` is `text` can be this message.
    func matches(_ text: String) -> Bool {
        switch form {
        case .whole(let stored): return stored == text
        case .prefix(let kept): return text.canonicallyComposed.unicodeScalars.starts(with: kept)
        case .placeholder: return true
        }
    }
}
