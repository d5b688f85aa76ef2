import OpenClawProtocol

/// A divider in the transcript: the gateway's synthetic history row (`__openclaw.kind`) where older
/// context was compacted, or where the session was reset. Shown as a line across the chat, never as a
/// message; numeric history offsets do not survive one, which is why rows are keyed by `__openclaw.id`.
public enum TranscriptBoundary: Sendable, Hashable {
    /// Older context was summarised; the token counts when the gateway's checkpoint recorded them.
    case compaction(tokensBefore: Int?, tokensAfter: Int?)
    /// The session was started afresh here.
    case reset

    /// Nil for an ordinary message (no kind, or a kind this client does not know).
    public init?(_ info: ChatTranscriptEntryInfo?) {
        switch info?.kind {
        case "compaction": self = .compaction(tokensBefore: info?.tokensBefore, tokensAfter: info?.tokensAfter)
        case "reset": self = .reset
        default: return nil
        }
    }

    /// The divider's words, the same in the app and the terminal: `Context compacted (9,000 → 1,200
    /// tokens)` or `Session reset`.
    public var text: String {
        switch self {
        case .reset: return "Session reset"
        case .compaction(let before?, let after?):
            return "Context compacted (\(Self.grouped(before)) → \(Self.grouped(after)) tokens)"
        case .compaction: return "Context compacted"
        }
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}

extension TranscriptEntry {
    /// The divider this row is, for the gateway's compaction and reset rows; nil for a message.
    public var boundary: TranscriptBoundary? { TranscriptBoundary(message?.entry) }

    /// Whether `chat.history` shortened this row: a text cut at the page's per-text limit (it ends with
    /// the gateway's marker) or an oversized message replaced by a placeholder. ``ChatSession/showAll(_:)``
    /// fetches it whole.
    public var isTruncated: Bool {
        guard source == .history, let message else { return false }
        let marker = ChatMessage.historyTruncationMarker.utf8.count
        // Only the last bytes, not the whole text materialised.
        return message.entry?.truncated == true
            || ChatMessage.endsWithTruncationMarker(body.suffix(fromUTF8Offset: body.utf8Count - marker))
    }

    /// The message's position in the gateway's transcript (`__openclaw.seq`, from 1): what the terminal's
    /// `/expand N` names.
    public var transcriptSeq: Int? { message?.entry?.seq }
}
