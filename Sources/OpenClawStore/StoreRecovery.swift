#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What ``SQLiteChatStore`` did when it found its database file damaged: where the file went, and
/// what became of the outbox (the messages typed on this device that the gateway has not confirmed).
///
/// Transcripts come back from the gateway; the outbox does not, so an app should tell the user how
/// many queued messages were recovered (they are back in the outbox and will be delivered, with
/// their original idempotency keys, so exactly once) and how many could not be — always, since a
/// message lost here exists nowhere else. ``lostText`` is that sentence.
public struct StoreRecovery: Sendable, Hashable {
    /// Why the file could not be used.
    public enum Cause: Sendable, Hashable {
        /// The file is not an SQLite database (garbage over its header).
        case notADatabase
        /// SQLite reports damage inside the file (lost or scribbled pages, a truncated file).
        case damaged
        /// An SQLite database, but not one this store wrote (its schema clashes with ours).
        case foreignSchema
        /// The file was empty (0 bytes, or missing) although the outbox journal shows a store existed.
        case emptied
    }

    /// Why the file could not be used.
    public let cause: Cause
    /// Where the damaged file (and its `-wal`/`-shm`) was moved, for a later look or a bug report.
    public let movedTo: URL
    /// Unsent messages put back in the outbox, from the outbox journal or the damaged file.
    public let recoveredMessages: Int
    /// Unsent messages the journal shows existed but that could not be read back. Nil when unknown:
    /// there was no journal (a store written by an older version) and the damaged file's outbox
    /// could not be read.
    public let lostMessages: Int?
    /// When the outbox journal was damaged too, the exact number lost is open: at most this many (at
    /// least ``lostMessages``). Nil when ``lostMessages`` is exact (or unknown).
    public let lostMessagesAtMost: Int?
    /// SQLite's words for what it found, for logs.
    public let detail: String

    public init(
        cause: Cause, movedTo: URL, recoveredMessages: Int, lostMessages: Int?, lostMessagesAtMost: Int? = nil,
        detail: String
    ) {
        self.cause = cause
        self.movedTo = movedTo
        self.recoveredMessages = recoveredMessages
        self.lostMessages = lostMessages
        if let lost = lostMessages, let most = lostMessagesAtMost, most > lost {
            self.lostMessagesAtMost = most
        } else {
            self.lostMessagesAtMost = nil
        }
        self.detail = detail
    }

    /// One paragraph for the person: what happened to the file, where it went, what became of the
    /// queued messages — the number lost always said (the terminal prints it on stderr, the app shows
    /// it as `AppModel`'s store warning).
    public var warning: String {
        let what =
            switch cause {
            case .notADatabase, .damaged, .foreignSchema: "was unreadable"
            case .emptied: "was found empty"
            }
        var text = "The local transcript database \(what) and was moved to \(movedTo.path). "
        if recoveredMessages > 0 {
            let plural = recoveredMessages == 1 ? "" : "s"
            text +=
                "\(recoveredMessages) queued message\(plural) \(plural.isEmpty ? "was" : "were") recovered and "
                + "will be delivered. "
        }
        return text + lostText + " Conversations will be read again from the gateway."
    }

    /// How many queued messages could not be recovered, as one sentence for a warning: exact, a range
    /// when the outbox journal was damaged too, or that it is unknown.
    public var lostText: String {
        func messages(_ count: Int) -> String { "\(count) queued message\(count == 1 ? "" : "s")" }
        guard let lost = lostMessages else {
            return "Queued messages it may have held could not be read: any are lost."
        }
        if let most = lostMessagesAtMost {
            let range = lost == 0 ? "Up to \(messages(most))" : "Between \(lost) and \(messages(most))"
            return "\(range) could not be recovered (the outbox journal was damaged too)."
        }
        if lost == 0 { return "No queued message was lost." }
        return "\(messages(lost)) could not be recovered."
    }
}
