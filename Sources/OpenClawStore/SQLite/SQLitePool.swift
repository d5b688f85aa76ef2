import Dispatch
import Synchronization

/// The store's connections to one database: a single writer, and readers that run beside it.
///
/// A file opens in WAL mode, where readers see the last committed state while the writer writes, so
/// a search never waits for a write. Writes take turns on the one writer connection (SQLite allows
/// one writer anyway, and one connection keeps the statement cache warm); readers are opened as
/// needed, read-only, and kept for reuse. An in-memory database has one connection (another would
/// open another, empty database), which reads and writes take turns on.
///
/// The async calls run on Dispatch rather than on the caller's thread: the terminal client runs
/// Swift concurrency on its network event loops, which a blocking SQLite call would stall.
final class SQLitePool: Sendable {
    private struct Readers {
        var idle: [SQLiteConnection] = []
        /// Reads under way (or opening their connection).
        var inUse = 0
        var isClosed = false
    }

    /// The file readers open; nil in memory, where reads use the writer.
    private let readerPath: String?
    private let busyTimeoutMs: Int32
    /// Nil once closed.
    private let writer: Mutex<SQLiteConnection?>
    private let readers = Mutex(Readers())
    /// Writes queue here instead of holding threads blocked on the writer's lock.
    private let writeQueue = DispatchQueue(label: "OpenClawStore.write")

    /// Readers kept open for reuse; more are opened while more reads run at once, and closed after.
    private static let maxIdleReaders = 4

    /// Opens `path` for writing (creating it), in WAL mode with `synchronous = NORMAL` (a commit is
    /// durable once the WAL is synced at a checkpoint; a crash can lose the last commits, never
    /// corrupt the file). Reading the schema at once makes a file that is not a database, or whose
    /// header is damaged, fail here rather than at the first query.
    convenience init(path: String, busyTimeoutMs: Int32 = 5000) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWrite, busyTimeoutMs: busyTimeoutMs)
        do {
            _ = try connection.rows(sql: "SELECT * FROM sqlite_master LIMIT 1")
            let mode = try connection.scalar(String.self, sql: "PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw SQLiteError(code: SQLiteResultCode.error.rawValue, message: "WAL mode refused: \(mode ?? "?")")
            }
            try connection.execute(sql: "PRAGMA synchronous = NORMAL")
        } catch {
            connection.close()
            throw error
        }
        self.init(writer: connection, readerPath: path, busyTimeoutMs: busyTimeoutMs)
    }

    /// A private database in memory, gone when the pool is.
    static func inMemory() throws -> SQLitePool {
        SQLitePool(writer: try SQLiteConnection(path: ":memory:"), readerPath: nil, busyTimeoutMs: 0)
    }

    private init(writer: SQLiteConnection, readerPath: String?, busyTimeoutMs: Int32) {
        self.writer = Mutex(writer)
        self.readerPath = readerPath
        self.busyTimeoutMs = busyTimeoutMs
    }

    /// Closes every connection at once, the writer first; calls after this fail with `SQLITE_MISUSE`,
    /// and readers in use close when their read ends. For a file about to be moved aside: a connection that
    /// closes last and can write would fold the WAL into the damaged file and delete the WAL by its name.
    func close() {
        closeWriter()
        closeIdleReaders()
    }

    /// Closes every connection, the writer last, after the reads under way; calls after this fail with
    /// `SQLITE_MISUSE`. SQLite moves the WAL into the file and deletes it only when the last connection to
    /// close can write, and an open that finds no WAL left behind skips the whole-file check.
    func closeCleanly() {
        if closeIdleReaders() == 0 { closeWriter() }
    }

    /// Marks the pool closed and closes its idle readers; returns how many reads are under way (each
    /// closes its reader as it ends).
    @discardableResult
    private func closeIdleReaders() -> Int {
        let (idle, readsUnderWay) = readers.withLock { readers in
            readers.isClosed = true
            defer { readers.idle = [] }
            return (readers.idle, readers.inUse)
        }
        for reader in idle { reader.close() }
        return readsUnderWay
    }

    private func closeWriter() {
        writer.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    /// Runs `body` on the writer in an immediate transaction, blocking the calling thread.
    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writeWithoutTransaction { connection in try connection.inTransaction(.immediate) { try body(connection) } }
    }

    /// Runs `body` on the writer outside any transaction (migrations open their own).
    func writeWithoutTransaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        // The writer may outlive the close for the reads under way, but takes no more writes.
        guard !readers.withLock({ $0.isClosed }) else { throw Self.closedError }
        return try writer.withLock { connection in
            guard let connection else { throw Self.closedError }
            return try body(connection)
        }
    }

    /// Runs `body` in a read transaction (one consistent snapshot), blocking the calling thread.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        guard let readerPath else {
            return try writeWithoutTransaction { connection in
                try connection.inTransaction(.deferred) { try body(connection) }
            }
        }
        let idle = try readers.withLock { readers in
            guard !readers.isClosed else { throw Self.closedError }
            readers.inUse += 1
            return readers.idle.popLast()
        }
        let reader: SQLiteConnection
        do {
            reader = try idle ?? SQLiteConnection(path: readerPath, mode: .readOnly, busyTimeoutMs: busyTimeoutMs)
        } catch {
            finishRead(nil)
            throw error
        }
        defer { finishRead(reader) }
        return try reader.inTransaction(.deferred) { try body(reader) }
    }

    /// Keeps `reader` for the next read, or closes it; the last read of a pool closed cleanly closes the
    /// writer.
    private func finishRead(_ reader: SQLiteConnection?) {
        let (kept, closesWriter) = readers.withLock { readers in
            readers.inUse -= 1
            var kept = false
            if let reader, !readers.isClosed, readers.idle.count < Self.maxIdleReaders {
                readers.idle.append(reader)
                kept = true
            }
            return (kept, readers.isClosed && readers.inUse == 0)
        }
        if !kept { reader?.close() }
        if closesWriter { closeWriter() }
    }

    /// ``write(_:)`` without blocking the caller: writes run in turn on a queue of their own.
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await inWriteTurn { try self.write(body) }
    }

    /// Moves the WAL's pages into the database file and empties the WAL (`wal_checkpoint(TRUNCATE)`),
    /// in turn with the writes. False when a read under way kept it from finishing.
    func checkpoint() async throws -> Bool {
        try await inWriteTurn {
            try self.writeWithoutTransaction { connection in
                try connection.column(Int.self, sql: "PRAGMA wal_checkpoint(TRUNCATE)").first == 0
            }
        }
    }

    private func inWriteTurn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writeQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// ``read(_:)`` without blocking the caller.
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try self.read(body) }) }
        }
    }

    static var closedError: SQLiteError {
        SQLiteError(code: SQLiteResultCode.misuse.rawValue, message: "the database is closed")
    }
}
