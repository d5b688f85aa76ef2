import Foundation

/// What ``SQLiteChatStore`` did when it found its database file damaged: where the file went, and
/// what became of the outbox (the messages typed on this device that the gateway has not confirmed).
///
/// Transcripts come back from the gateway; the outbox does not, so an app should tell the user how
/// many queued messages were recovered (they are back in the outbox and will be delivered, with
/// their original idempotency keys, so exactly once) and how many could not be.
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
    /// SQLite's words for what it found, for logs.
    public let detail: String

    public init(cause: Cause, movedTo: URL, recoveredMessages: Int, lostMessages: Int?, detail: String) {
        self.cause = cause
        self.movedTo = movedTo
        self.recoveredMessages = recoveredMessages
        self.lostMessages = lostMessages
        self.detail = detail
    }
}
