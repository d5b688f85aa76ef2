import Logging
import OpenClawChat

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What to do when the database file cannot be used: tell corruption from trouble that moving the
/// file would not fix, move a corrupt file aside, put the outbox back, and start afresh.
///
/// The store is mostly a cache of the gateway's transcripts, so losing it costs a refetch; refusing
/// to start (or crashing at every launch) would cost the app. The outbox is the one thing only this
/// device has: it comes back from the ``OutboxJournal`` (whatever happened to the file's pages), plus
/// any row SQLite can still read in the damaged file that the journal does not know of.
enum CorruptionRecovery {
    /// `PRAGMA quick_check` found damage; `report` is its first line.
    struct IntegrityFailure: Error, CustomStringConvertible {
        let report: String
        var description: String { "integrity check failed: \(report)" }
    }

    /// A migration failed on a writable file: its schema is not ours.
    struct ForeignSchema: Error, CustomStringConvertible {
        let error: SQLiteError
        var description: String { "foreign schema: \(CorruptionRecovery.reason(error))" }
    }

    /// The file is empty although the journal shows that a store existed.
    struct EmptiedFile: Error, CustomStringConvertible {
        var description: String { "the file is empty but the outbox journal is not" }
    }

    struct Outcome {
        let writer: SQLitePool
        let report: StoreRecovery
    }

    /// Why `error`, thrown while opening, checking or migrating, means the file's content is bad; nil
    /// when it does not. Only SQLite's own verdicts count (not a database, corrupt, a schema that is
    /// not ours): a busy, locked, read-only, unopenable or full database, or an I/O error, is about the
    /// machine, not the file, and moving a healthy store aside for those would help nothing.
    static func cause(of error: any Error) -> StoreRecovery.Cause? {
        switch error {
        case is IntegrityFailure: return .damaged
        case is ForeignSchema: return .foreignSchema
        case is EmptiedFile: return .emptied
        case let error as SQLiteError:
            switch error.resultCode {
            case .notADatabase: return .notADatabase
            case .corrupt, .format: return .damaged
            default: return nil
            }
        default: return nil
        }
    }

    /// Moves the damaged file aside, opens a fresh database with `open`, puts the outbox back (from
    /// the journal and whatever the damaged file still yields), rewrites the journal from it, and
    /// logs one line that says what happened, where the old file is and what became of the outbox: a
    /// notice while opening (the caller gets ``StoreRecovery`` and tells the user), a warning later,
    /// when nobody else will.
    static func recover(
        path: String,
        journal: OutboxJournal,
        cause: StoreRecovery.Cause,
        error: any Error,
        logger: Logger,
        level: Logger.Level,
        open: (String) throws -> SQLitePool
    ) throws -> Outcome {
        let epochMs = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let aside = try StoreFile.moveAside(path, epochMs: epochMs)
        let salvaged = cause == .emptied ? [] : salvageOutbox(at: aside, spool: journal.spool)
        let replay = journal.replay()
        let (messages, counted) = merge(journal: replay, salvaged: salvaged)
        // A folder of files no recovered message names was a queued message's: it is lost (and was
        // among those the damaged records hid, so it does not raise the bound).
        let kept = Set(messages.map { OutboxSpool.name(OutboxSpool.Key(gateway: $0.gateway, id: $0.id)) })
        let orphans = journal.spool.folderNames().subtracting(kept).count
        let lost = counted.map { max($0, orphans) }
        let atMost = counted.map { $0 + (replay?.possiblyLostBeyondCount ?? 0) }
        try StoreFile.prepare(path)
        let writer = try open(path)
        try writer.write { db in
            for message in messages {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO outbox (\(OutboxRecord.selection)) VALUES (\(OutboxRecord.placeholders))
                        """,
                    arguments: OutboxRecord.arguments(message))
            }
            try journal.rewrite(try OutboxRecord.all(db, spool: journal.spool))
        }
        let report = StoreRecovery(
            cause: cause, movedTo: URL(fileURLWithPath: aside), recoveredMessages: messages.count,
            lostMessages: lost, lostMessagesAtMost: atMost, detail: reason(error))
        logger.log(level: level, "\(summary(report, path: path))")
        return Outcome(writer: writer, report: report)
    }

    /// The outbox to restore and how many messages are known lost (nil: unknown). The journal is the
    /// record of every committed change, so it wins; a row of the damaged file counts only when the
    /// journal never saw its key (a journal damaged in places, or none at all).
    static func merge(
        journal: OutboxJournal.Replay?, salvaged: [OutboxMessage]?
    ) -> (messages: [OutboxMessage], lost: Int?) {
        guard let journal else { return (salvaged ?? [], salvaged == nil ? nil : 0) }
        let known = Set(journal.messages.map { [$0.gateway, $0.id] }).union(journal.removed)
        let extra = (salvaged ?? []).filter { !known.contains([$0.gateway, $0.id]) }
        let lost = max(0, journal.lostCount - extra.count)
        return (journal.messages + extra, lost)
    }

    /// One line for the log.
    static func summary(_ report: StoreRecovery, path: String) -> String {
        let recovered = report.recoveredMessages
        let outbox = "\(recovered) unsent message\(recovered == 1 ? "" : "s") recovered. \(report.lostText)"
        return """
            Chat store \(path) was unreadable (\(report.detail)): moved it to \(report.movedTo.path) and started \
            an empty store; \(outbox) Transcripts will be re-read from the gateway.
            """
    }

    /// The outbox rows of the damaged file, or nil when SQLite cannot read them. Opened read-only so
    /// the moved file stays as it was found. `writable_schema` makes SQLite read a file shorter than
    /// its header says (a truncated copy) instead of refusing it, so the early pages (the schema and
    /// the small outbox table) can still be read.
    private static func salvageOutbox(at path: String, spool: OutboxSpool) -> [OutboxMessage]? {
        do {
            let db = try SQLiteConnection(path: path, mode: .readOnly)
            defer { db.close() }
            try db.execute(sql: "PRAGMA writable_schema = ON")
            return try db.rows(sql: "SELECT \(OutboxRecord.salvageSelection) FROM outbox ORDER BY seq")
                .map { OutboxRecord.message(row: $0, spool: spool) }
        } catch {
            return nil
        }
    }

    /// A short reason for the log line: SQLite's own message, without the SQL.
    static func reason(_ error: any Error) -> String {
        if let error = error as? SQLiteError { return error.description }
        return "\(error)"
    }
}
