import Foundation
import GRDB
import Logging
import OpenClawChat
import OpenClawProtocol

/// The ``ChatStore`` of the apps: transcripts, full-text search and the outbox in one SQLite file.
///
/// SQLite because the data is relational and small, has to survive crashes (every call is one
/// transaction), and needs full-text search, which FTS5 provides in the same file on every platform
/// we ship; GRDB for migrations, WAL connection pooling and Swift concurrency on top of it.
///
/// The file runs in WAL mode behind a `DatabasePool`: searches and reads never wait for a write. It
/// is created with mode 0600 (missing folders 0700): transcripts are private. A file that is corrupt
/// or not a database is moved aside and replaced (see ``recoveredFromCorruption``) instead of
/// failing the app. Sizes are bounded by ``ChatStoreLimits``.
public final class SQLiteChatStore: ChatStore {
    /// The database file; nil for an in-memory store.
    public let path: String?
    public let limits: ChatStoreLimits
    /// Set when the file found at ``path`` was corrupt: where it was moved. The store in use is new
    /// (transcripts come back with the next history fetch), which callers may want to tell the user.
    /// A `let`, set once while opening, so the store stays `Sendable` without a lock.
    public let recoveredFromCorruption: URL?

    private let writer: any DatabaseWriter
    private let logger: Logger

    /// Opens (creating if needed) the store at `path`, migrating it to the current schema.
    ///
    /// Throws only when the file cannot be used for reasons a fresh file would not fix (permissions,
    /// a full disk, a lock held too long); a corrupt file is recovered from instead.
    public init(
        path: String,
        limits: ChatStoreLimits = .init(),
        logger: Logger = Logger(label: "openclaw.store")
    ) throws {
        self.path = path
        self.limits = limits
        self.logger = logger
        try StoreFile.prepare(path)
        do {
            writer = try Self.open(path)
            recoveredFromCorruption = nil
        } catch  where CorruptionRecovery.isCorruption(error) {
            let outcome = try CorruptionRecovery.recover(path: path, cause: error, logger: logger, open: Self.open)
            writer = outcome.writer
            recoveredFromCorruption = URL(fileURLWithPath: outcome.movedTo)
        }
    }

    /// A store in memory, gone with the object: same schema and SQL as the file, for tests.
    public init(
        inMemoryWithLimits limits: ChatStoreLimits = .init(), logger: Logger = Logger(label: "openclaw.store")
    )
        throws
    {
        let queue = try DatabaseQueue()
        try StoreSchema.migrator.migrate(queue)
        self.path = nil
        self.limits = limits
        self.logger = logger
        self.writer = queue
        self.recoveredFromCorruption = nil
    }

    /// Opens a pool on `path`, checks the file and migrates it. Any failure closes the pool, so the
    /// file can be moved.
    private static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "OpenClawStore"
        // Another process (the terminal client beside the app) may hold the write lock for a moment.
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: path, configuration: configuration)
        do {
            let report = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard report == ["ok"] else {
                throw CorruptionRecovery.IntegrityFailure(report: report.first ?? "no result")
            }
            try StoreSchema.migrator.migrate(pool)
        } catch {
            try? pool.close()
            throw error
        }
        return pool
    }

    // MARK: Transcripts

    public func latestMessages(gateway: String, sessionKey: String, limit: Int) async throws -> [StoredMessage] {
        guard limit > 0 else { return [] }
        // Rows are mapped inside the closure: `Row` is not Sendable, and a non-Sendable result would
        // select GRDB's blocking `read` instead of the async one.
        return try await writer.read { db in
            try Row.fetchAll(
                db,
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
        let nowMs = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
        try await writer.write { db in
            try TranscriptWriter.record(messages, in: session, db: db)
            try TranscriptWriter.touchAndEnforce(limits, session: session, nowMs: nowMs, db: db)
        }
    }

    public func search(_ query: String, gateway: String?, limit: Int) async throws -> [SearchHit] {
        let query = SearchQuery(query)
        guard query.matchExpression != nil, limit > 0 else { return [] }
        return try await writer.read { db in try query.hits(gateway: gateway, limit: limit, db: db) }
    }

    // MARK: Outbox

    public func enqueue(_ message: OutboxMessage) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO outbox (\(OutboxRecord.selection)) VALUES (\(OutboxRecord.placeholders))
                    ON CONFLICT (gateway, id) DO NOTHING
                    """,
                arguments: OutboxRecord.arguments(message))
        }
    }

    public func update(_ message: OutboxMessage) async throws {
        let (state, reason) = OutboxRecord.columns(message.state)
        try await writer.write { db in
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
        }
    }

    public func removeFromOutbox(id: String, gateway: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE gateway = ? AND id = ?", arguments: [gateway, id])
        }
    }

    public func outbox(gateway: String) async throws -> [OutboxMessage] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(OutboxRecord.selection) FROM outbox WHERE gateway = ? ORDER BY seq",
                arguments: [gateway]
            )
            .map(OutboxRecord.message(row:))
        }
    }
}
