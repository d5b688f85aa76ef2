import Logging
import OpenClawChat
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `ChatStore` of the apps: transcripts, full-text search and the outbox in one SQLite file.
///
/// SQLite because the data is relational and small, has to survive crashes (every call is one
/// transaction), and needs full-text search, which FTS5 provides in the same file on every platform
/// we ship, through the system's library (a thin layer of our own: migrations, one writer and pooled
/// readers, typed errors).
///
/// The file runs in WAL mode with one writer and separate readers: searches and reads never wait for a
/// write. It is created with mode 0600 (missing folders 0700): transcripts are private. The outbox is also
/// kept in a journal beside the file (`<path>-outbox`), so a file that is corrupt or not a database is
/// moved aside and replaced, with its outbox put back (see ``recovery``), instead of failing the app.
/// Sizes are bounded by ``ChatStoreLimits``.
public final class SQLiteChatStore: ChatStore {
    /// The database file; nil for an in-memory store.
    public let path: String?
    /// How much of the transcripts, and of the outbox's files, the store keeps.
    public let limits: ChatStoreLimits
    /// Set when the file at ``path`` was found damaged, while opening or later: where it went and
    /// what became of the outbox. The store in use is new (transcripts come back with the next
    /// history fetch), which callers should tell the user.
    public var recovery: StoreRecovery? { connection.recovery }

    /// A store on a file keeps the outbox for the next launch; an in-memory one does not.
    public var keepsOutboxAcrossLaunches: Bool { path != nil }

    /// Where the damaged file was moved, if it was (``recovery`` says more).
    public var recoveredFromCorruption: URL? { recovery?.movedTo }

    private let connection: StoreConnection
    /// What recent writes left in the transcript rows, so a page recorded again skips what is unchanged.
    private let recorded = RecordedMessages()
    /// The outbox's copy outside the database; nil for an in-memory store.
    private var journal: OutboxJournal? { connection.journal }
    /// Copies of the files of outbox messages (``OutboxSpool``): beside the file, or in a temporary
    /// folder for an in-memory store.
    private let spool: OutboxSpool
    private let removesSpoolOnDeinit: Bool
    private let logger: Logger

    /// Opens (creating if needed) the store at `path`, migrating it to the current schema.
    ///
    /// Throws ``StoreUnavailable`` only when the file cannot be used for reasons a fresh file would
    /// not fix (read-only, permissions, something else where the file should be, a full disk, a lock
    /// held too long); the file is then left untouched. A damaged file is recovered from instead.
    public init(
        path: String,
        limits: ChatStoreLimits = .init(),
        logger: Logger = Logger(label: "openclaw.store")
    ) throws {
        self.path = path
        self.limits = limits
        self.logger = logger
        let journal = OutboxJournal(databasePath: path)
        spool = journal.spool
        removesSpoolOnDeinit = false
        let writer: SQLitePool
        let recovery: StoreRecovery?
        do {
            try StoreFile.prepare(path)
            // Empty, with no WAL that could hold its pages, yet the journal shows a store was here.
            if StoreFile.size(path) == 0, (StoreFile.size(path + "-wal") ?? 0) == 0, journal.exists {
                throw CorruptionRecovery.EmptiedFile()
            }
            guard StoreFile.isWritable(path) else {
                throw StoreUnavailable(reason: .readOnly, path: path, detail: "no write permission")
            }
            guard journal.isUsable else {
                throw StoreUnavailable(reason: .cannotOpen, path: journal.path, detail: "not a regular file")
            }
            // A WAL left behind means the last session did not close: only then is the whole file checked.
            let pool = try StoreConnection.open(path, check: StoreFile.hasWALLeftBehind(path))
            if !journal.exists {
                // A new store, or one written before the journal existed: start it from the table.
                try pool.write { db in try journal.rewrite(try OutboxRecord.all(db, spool: journal.spool)) }
            }
            writer = pool
            recovery = nil
        } catch let error as StoreUnavailable {
            throw error
        } catch {
            guard let cause = CorruptionRecovery.cause(of: error) else {
                throw StoreUnavailable(path: path, error: error)
            }
            do {
                let outcome = try CorruptionRecovery.recover(
                    path: path, journal: journal, cause: cause, error: error, logger: logger, level: .notice,
                    open: { try StoreConnection.open($0, check: false) })
                writer = outcome.writer
                recovery = outcome.report
            } catch {
                throw StoreUnavailable(path: path, error: error)
            }
        }
        connection = StoreConnection(
            path: path, journal: journal, writer: writer, recovery: recovery, logger: logger)
        if StoreFile.exists(spool.directory) {
            let keys = try? writer.read { db in
                try db.rows(sql: "SELECT gateway, id FROM outbox").map { row in
                    OutboxSpool.Key(gateway: row["gateway"] ?? "", id: row["id"] ?? "")
                }
            }
            if let keys { spool.removeAll(except: Set(keys)) }
        }
    }

    /// A store in memory, gone with the object: same schema and SQL as the file, for tests.
    public init(
        inMemoryWithLimits limits: ChatStoreLimits = .init(), logger: Logger = Logger(label: "openclaw.store")
    )
        throws
    {
        let pool = try SQLitePool.inMemory()
        try pool.writeWithoutTransaction { db in try StoreSchema.migrator.migrate(db) }
        self.path = nil
        self.limits = limits
        self.logger = logger
        self.connection = StoreConnection(path: nil, journal: nil, writer: pool, recovery: nil, logger: logger)
        spool = OutboxSpool(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("openclaw-outbox-\(UUID())").path)
        removesSpoolOnDeinit = true
    }

    /// Closes the database file; calls after this fail. SQLite moves the WAL's pages into the file and
    /// deletes the WAL when its last connection closes, and an open that finds no WAL left behind skips the
    /// whole-file check (`PRAGMA quick_check`, a tenth of a second or more on a store of 100,000 messages)
    /// it runs after a session that did not close. A process that ends without closing costs its next
    /// launch that check, so a program closes its store when it is done. A write that holds the database
    /// finishes first; one still waiting for its turn fails.
    public func close() {
        connection.close()
    }

    /// Moves what was written into the database file and empties the WAL, leaving the store open: for
    /// an app going to the background, which the system may end without a word, so that its next launch
    /// finds no WAL and skips the whole-file check. False when a read under way kept the WAL from
    /// emptying (the next launch then checks the file, as after a crash).
    @discardableResult
    public func checkpoint() async throws -> Bool {
        try await connection.run { pool in try await pool.checkpoint() }
    }

    deinit {
        if removesSpoolOnDeinit { try? FileManager.default.removeItem(atPath: spool.directory) }
    }

    // MARK: Transcripts

    public func latestMessages(gateway: String, sessionKey: String, limit: Int) async throws -> [StoredMessage] {
        guard limit > 0 else { return [] }
        return try await connection.read { db in
            try db.rows(
                sql: """
                    SELECT * FROM (
                        SELECT \(MessageRecord.selection), position FROM messages
                        WHERE gateway = ? AND session_key = ? ORDER BY position DESC LIMIT ?)
                    ORDER BY position
                    """,
                arguments: [gateway, sessionKey, limit]
            )
            .map { MessageRecord(row: $0).storedMessage }
        }
    }

    public func record(_ messages: [StoredMessage], gateway: String, sessionKey: String) async throws {
        let session = TranscriptWriter.Session(gateway: gateway, sessionKey: sessionKey)
        let limits = limits
        let recorded = recorded
        let nowMs = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
        try await connection.write { db in
            try TranscriptWriter.record(messages, in: session, db: db, recorded: recorded)
            try TranscriptWriter.touchAndEnforce(limits, session: session, nowMs: nowMs, db: db)
        }
    }

    /// Messages that contain every word of `query` in their text or the names of their files, best
    /// match first (bm25, then newest); the last word may be the start of a word. Case, accents and
    /// English word endings are folded, and the query is never read as FTS5 syntax.
    public func search(_ query: String, gateway: String?, limit: Int) async throws -> [SearchHit] {
        let query = SearchQuery(query)
        guard query.matchExpression != nil, limit > 0 else { return [] }
        return try await connection.read { db in try query.hits(gateway: gateway, limit: limit, db: db) }
    }

    // MARK: Outbox

    /// Keeps the message until ``removeFromOutbox(id:gateway:)``. Its attachments are copied into the
    /// spool first (outside the write transaction, which other writers would wait for); if the row is not
    /// written the copy goes, and one whose row never comes (a crash in between) goes at a later open.
    /// Throws ``OutboxFilesOverLimit``, keeping nothing, when the files would pass the bound.
    public func enqueue(_ message: OutboxMessage) async throws {
        let journal = journal
        let key = OutboxSpool.Key(gateway: message.gateway, id: message.id)
        var copied = false
        if !message.attachments.isEmpty {
            let (isQueued, held) = try await connection.read { db in
                try OutboxRecord.attachmentBytes(db, besides: key)
            }
            // Enqueued again (it is already here, with its files): the row stays as it is.
            if !isQueued {
                let bytes = message.attachments.reduce(0) { $0 + $1.size }
                guard held + bytes <= limits.maxOutboxAttachmentBytes else {
                    throw OutboxFilesOverLimit(
                        messageBytes: bytes, heldBytes: held, limit: limits.maxOutboxAttachmentBytes)
                }
                // Up to the bound's 200 MB read, written and fsynced: not on the caller's thread, which
                // may be an event loop carrying a reply meanwhile.
                try await BlockingWork.run { [spool] in try spool.store(message) }
                copied = true
            }
        }
        do {
            try await connection.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO outbox (\(OutboxRecord.selection)) VALUES (\(OutboxRecord.placeholders))
                        ON CONFLICT (gateway, id) DO NOTHING
                        """,
                    arguments: OutboxRecord.arguments(message))
                try Self.journal(.put(message), to: journal, db: db)
            }
        } catch {
            if copied { spool.remove(key) }
            throw error
        }
    }

    public func update(_ message: OutboxMessage) async throws {
        let (state, reason) = OutboxRecord.columns(message.state)
        let journal = journal
        try await connection.write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET session_key = ?, text = ?, thinking = ?, created_at_ms = ?, state = ?,
                        failure_reason = ?, attempts = ?, last_attempt_at_ms = ?, uncertain_since_ms = ?
                    WHERE gateway = ? AND id = ?
                    """,
                arguments: [
                    message.sessionKey, message.text, message.thinking, message.createdAtMs, state, reason,
                    message.attempts, message.lastAttemptAtMs, message.uncertainSinceMs, message.gateway, message.id,
                ])
            try Self.journal(.put(message), to: journal, db: db)
        }
    }

    public func removeFromOutbox(id: String, gateway: String) async throws {
        let journal = journal
        let removed = try await connection.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE gateway = ? AND id = ?", arguments: [gateway, id])
            let changed = db.changesCount > 0
            try Self.journal(.remove(gateway: gateway, id: id), to: journal, db: db)
            return changed
        }
        if removed { spool.remove(OutboxSpool.Key(gateway: gateway, id: id)) }
    }

    public func outbox(gateway: String) async throws -> [OutboxMessage] {
        let spool = spool
        return try await connection.read { db in
            try db.rows(
                sql: "SELECT \(OutboxRecord.selection) FROM outbox WHERE gateway = ? ORDER BY seq",
                arguments: [gateway]
            )
            .map { OutboxRecord.message(row: $0, spool: spool) }
        }
    }

    /// Appends the change the statement just made (if it changed a row) to the journal, inside the
    /// same transaction: if the append fails, the change is rolled back. Compacts the journal from
    /// the table when it has grown enough.
    private static func journal(_ entry: OutboxJournal.Entry, to journal: OutboxJournal?, db: SQLiteConnection) throws {
        guard let journal, db.changesCount > 0 else { return }
        if try journal.append(entry, count: try OutboxRecord.count(db)) {
            try journal.rewrite(try OutboxRecord.all(db, spool: journal.spool))
        }
    }
}
