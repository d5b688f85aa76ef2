import Logging
import Synchronization

/// The database a ``SQLiteChatStore`` works on, replaced when SQLite reports it damaged.
///
/// Opening does not read the whole file (`PRAGMA quick_check` took 15 of the 17 ms of an open at 10k
/// messages): SQLite reports damage itself, as `SQLITE_CORRUPT` or `SQLITE_NOTADB`, on the statement
/// that meets it. So every call goes through ``run(_:)``, which on such an error recovers (the file
/// moved aside, the outbox put back from the journal) and runs the call once more on the new file.
/// The whole-file check runs only at an open that finds a WAL left behind — the last session did not
/// close (SQLite deletes the WAL when the last connection closes) and no other process has the file
/// open — where a crash may have left damage that no statement would meet for a while.
final class StoreConnection: Sendable {
    private struct State {
        var writer: SQLitePool
        var recovery: StoreRecovery?
        /// Set by ``close()``: a call that met damage meanwhile does not open a new file that nobody closes.
        var isClosed = false
    }

    /// The database file; nil in memory, where there is nothing to recover.
    let path: String?
    let journal: OutboxJournal?
    private let logger: Logger
    private let state: Mutex<State>

    var recovery: StoreRecovery? { state.withLock { $0.recovery } }

    init(path: String?, journal: OutboxJournal?, writer: SQLitePool, recovery: StoreRecovery?, logger: Logger) {
        self.path = path
        self.journal = journal
        self.logger = logger
        state = Mutex(State(writer: writer, recovery: recovery))
    }

    /// Closes the database; later calls fail (`SQLITE_MISUSE`), as do writes still queued. A write that
    /// holds the writer finishes first.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.writer.closeCleanly()
        }
    }

    /// A read (see ``run(_:)``).
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await run { writer in try await writer.read(body) }
    }

    /// A write transaction (see ``run(_:)``).
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await run { writer in try await writer.write(body) }
    }

    /// Runs `body` on the database; when SQLite finds the file damaged, recovers and runs it again on
    /// the new one. A call that fails before its transaction commits changed nothing, so running it
    /// again applies it exactly once.
    func run<T>(_ body: (SQLitePool) async throws -> T) async throws -> T {
        let writer = state.withLock { $0.writer }
        do {
            return try await body(writer)
        } catch {
            guard let path, let journal, let cause = CorruptionRecovery.cause(of: error) else { throw error }
            try recover(from: writer, path: path, journal: journal, cause: cause, error: error)
            return try await body(state.withLock { $0.writer })
        }
    }

    /// Replaces `failed` with a recovered database, unless another call already did.
    private func recover(
        from failed: SQLitePool, path: String, journal: OutboxJournal, cause: StoreRecovery.Cause,
        error: any Error
    ) throws {
        let logger = logger
        try state.withLock { state in
            guard !state.isClosed else { throw SQLitePool.closedError }
            guard state.writer === failed else { return }
            failed.close()
            let outcome = try CorruptionRecovery.recover(
                path: path, journal: journal, cause: cause, error: error, logger: logger, level: .warning,
                open: { try Self.open($0, check: false) })
            state.writer = outcome.writer
            state.recovery = outcome.report
        }
    }

    /// Opens a pool on `path` and migrates it; with `check`, runs `PRAGMA quick_check` first. Any
    /// failure closes the pool, so the file can be moved.
    static func open(_ path: String, check: Bool) throws -> SQLitePool {
        // Another process (the terminal client beside the app) may hold the write lock for a moment.
        let pool = try SQLitePool(path: path, busyTimeoutMs: 5000)
        do {
            if check {
                let report = try pool.read { db in try db.column(String.self, sql: "PRAGMA quick_check") }
                guard report == ["ok"] else {
                    throw CorruptionRecovery.IntegrityFailure(report: report.first ?? "no result")
                }
            }
            do {
                try pool.writeWithoutTransaction { db in try StoreSchema.migrator.migrate(db) }
            } catch let error as SQLiteError where error.resultCode == .error {
                // The file is writable (checked before), so a plain SQL error here is a clashing schema.
                throw CorruptionRecovery.ForeignSchema(error: error)
            }
        } catch {
            pool.close()
            throw error
        }
        return pool
    }
}
