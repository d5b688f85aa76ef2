import CSQLite

/// One connection to an SQLite database: statements, a statement cache, transactions.
///
/// Not thread-safe by itself (it is opened in SQLite's multi-thread mode, without SQLite's own
/// per-connection mutex): one thread at a time uses it, which `SQLitePool` guarantees for the store
/// (the writer under a lock, each reader checked out to one caller). That is why it can be `Sendable`.
final class SQLiteConnection: @unchecked Sendable {
    /// How a connection opens its file.
    enum Mode {
        /// Read and write, creating the file if it is missing.
        case readWrite
        /// Read only: the file is never changed (a WAL left behind is read, not folded in).
        case readOnly
    }

    private let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]
    private var isClosed = false
    /// Run when the current transaction commits, dropped when it rolls back.
    private var commitActions: [() -> Void] = []

    /// Opens `path` (`:memory:` for a private in-memory database). `busyTimeoutMs` is how long a
    /// statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    init(path: String, mode: Mode = .readWrite, busyTimeoutMs: Int32 = 5000) throws {
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code: code, connection: opened)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMs)
    }

    deinit { close() }

    /// Finalizes the cached statements and closes the connection; later calls fail with `SQLITE_MISUSE`.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changesCount: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last row inserted.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether no transaction is open.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Runs every statement of `sql` in turn; each takes as many of `arguments` as it has parameters.
    func execute(sql: String, arguments: SQLiteArguments = []) throws {
        try checkOpen()
        var remaining = arguments[...]
        try sql.withCString { start throws in
            var text = start
            while let prepared = try SQLiteStatement.prepare(connection: handle, text: text) {
                let statement = SQLiteStatement(handle: prepared.handle, connection: handle)
                let count = min(statement.parameterCount, remaining.count)
                try statement.execute(Array(remaining.prefix(count)))
                remaining = remaining.dropFirst(count)
                text = prepared.rest
            }
        }
        guard remaining.isEmpty else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "\(remaining.count) arguments left over")
        }
    }

    /// Every row of the single statement `sql`.
    func rows(sql: String, arguments: SQLiteArguments = []) throws -> [SQLiteRow] {
        try statement(sql).rows(arguments)
    }

    /// The first column of the first row of `sql` as `T`; nil when there is no row or it is NULL.
    func scalar<T: SQLiteColumnDecodable>(
        _ type: T.Type, sql: String, arguments: SQLiteArguments = []
    ) throws -> T? {
        try statement(sql).scalar(type, arguments)
    }

    /// The first column of every row of `sql`, as `T`.
    func column<T: SQLiteColumnDecodable>(
        _ type: T.Type, sql: String, arguments: SQLiteArguments = []
    ) throws -> [T] {
        try statement(sql).column(type, arguments)
    }

    /// A statement kept prepared for this connection's life: for the statements a write runs many
    /// times (one per message of a page), where preparing each time would cost more than running.
    func cachedStatement(sql: String) throws -> SQLiteStatement {
        if let statement = cache[sql] { return statement }
        let statement = try statement(sql)
        cache[sql] = statement
        return statement
    }

    /// How a transaction takes its locks.
    enum TransactionKind: String {
        /// The write lock at once: a writer that waits, waits at `BEGIN` (within the busy timeout)
        /// rather than failing half-way when it first writes.
        case immediate = "IMMEDIATE"
        /// Locks as statements need them: for reads, a consistent snapshot.
        case deferred = "DEFERRED"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it (or the commit)
    /// throws, so a failed call changes nothing.
    func inTransaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        commitActions = []
        try execute(sql: "BEGIN \(kind.rawValue)")
        do {
            let result = try body()
            try execute(sql: "COMMIT")
            let actions = commitActions
            commitActions = []
            for action in actions { action() }
            return result
        } catch {
            commitActions = []
            if !isAutocommit { try? execute(sql: "ROLLBACK") }
            throw error
        }
    }

    /// Runs `action` once the transaction in progress has committed, still on this connection's turn
    /// (before the next write can begin); never if it rolls back. For memory that must match the file.
    func afterCommit(_ action: @escaping () -> Void) {
        commitActions.append(action)
    }

    private func statement(_ sql: String) throws -> SQLiteStatement {
        try checkOpen()
        return try SQLiteStatement(connection: handle, sql: sql)
    }

    private func checkOpen() throws {
        guard !isClosed else { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed") }
    }
}
