import Foundation
import GRDB
import Logging
import OpenClawChat

/// What to do when the database file cannot be used: tell corruption from trouble that moving the
/// file would not fix, move a corrupt file aside, keep what can be kept, and start afresh.
///
/// The store is mostly a cache of the gateway's transcripts, so losing it costs a refetch; refusing
/// to start (or crashing at every launch) would cost the app. The outbox is the one thing only this
/// device has, so its rows are copied from the damaged file when SQLite can still read that table.
enum CorruptionRecovery {
    /// `PRAGMA quick_check` found damage; `report` is its first line.
    struct IntegrityFailure: Error, CustomStringConvertible {
        let report: String
        var description: String { "integrity check failed: \(report)" }
    }

    struct Outcome {
        let writer: DatabasePool
        /// Where the damaged file went.
        let movedTo: String
    }

    /// Whether `error`, thrown while opening, checking or migrating, means the file's content is bad.
    /// A busy, locked, read-only, unopenable or full database, or an I/O error, is about the machine,
    /// not the file: moving a healthy store aside for those would lose the outbox for nothing, so
    /// they are thrown to the caller instead.
    static func isCorruption(_ error: any Error) -> Bool {
        if error is IntegrityFailure { return true }
        guard let error = error as? DatabaseError else { return false }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_FULL, .SQLITE_PERM,
            .SQLITE_NOMEM, .SQLITE_INTERRUPT, .SQLITE_IOERR, .SQLITE_AUTH, .SQLITE_NOLFS:
            return false
        default:
            // CORRUPT, NOTADB, FORMAT, and schema errors from a migration on a file that is not ours.
            return true
        }
    }

    /// Moves the damaged file aside, opens a fresh database with `open`, copies the outbox rows that
    /// can still be read, and logs one warning that says what happened and where the old file is.
    static func recover(
        path: String,
        cause: any Error,
        logger: Logger,
        open: (String) throws -> DatabasePool
    ) throws -> Outcome {
        let epochMs = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let aside = try StoreFile.moveAside(path, epochMs: epochMs)
        let salvaged = salvageOutbox(at: aside)
        try StoreFile.prepare(path)
        let writer = try open(path)
        // One transaction: the copy is all or nothing, and its failure only costs the salvage.
        let kept =
            (try? writer.write { db in
                for message in salvaged {
                    try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO outbox (\(OutboxRecord.selection)) VALUES (\(OutboxRecord.placeholders))
                            """,
                        arguments: OutboxRecord.arguments(message))
                }
                return salvaged.count
            }) ?? 0
        let outboxNote = kept == 0 ? "" : "; \(kept) unsent message\(kept == 1 ? " was" : "s were") kept"
        logger.warning(
            """
            Chat store \(path) was unreadable (\(reason(cause))): moved it to \(aside) and started an empty \
            store. Transcripts will be re-read from the gateway\(outboxNote).
            """)
        return Outcome(writer: writer, movedTo: aside)
    }

    /// The outbox rows of the damaged file, or none when SQLite cannot read them. Opened read-only so
    /// the moved file stays as it was found. `writable_schema` makes SQLite read a file shorter than
    /// its header says (a truncated copy) instead of refusing it, so the early pages (the schema and
    /// the small outbox table) can still be read.
    private static func salvageOutbox(at path: String) -> [OutboxMessage] {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA writable_schema = ON") }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT \(OutboxRecord.salvageSelection) FROM outbox ORDER BY seq")
                    .map(OutboxRecord.message(row:))
            }
        } catch {
            return []
        }
    }

    /// A short reason for the log line: SQLite's own message, without the SQL.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
        }
        return "\(error)"
    }
}
