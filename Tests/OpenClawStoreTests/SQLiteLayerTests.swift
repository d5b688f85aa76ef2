import Dispatch
import Foundation
import Synchronization
import Testing

@testable import OpenClawStore

/// The store's own SQLite layer: values round-trip, and SQLite's verdicts on a file reach the store typed,
/// so that recovery moves a damaged file aside and leaves a healthy one alone.
@Suite struct SQLiteLayerTests {
    @Test func valuesRoundTripThroughBindingAndColumns() throws {
        let db = try SQLiteConnection(path: ":memory:")
        defer { db.close() }
        try db.execute(
            sql: "CREATE TABLE t (s TEXT, i INTEGER, r REAL, n TEXT); INSERT INTO t VALUES (?, ?, ?, ?)",
            arguments: ["café \u{0}after", Int64.max, 0.25, String?.none])
        let row = try #require(try db.rows(sql: "SELECT * FROM t").first)
        #expect(row["s"] == "café \u{0}after")
        #expect(row["i"] == Int64.max)
        #expect(row["r"] == 0.25)
        #expect((row["n"] as String?) == nil)
        #expect((row["missing"] as String?) == nil)
        #expect(db.changesCount == 1)
        #expect(throws: SQLiteError.self) { try db.execute(sql: "SELECT ?", arguments: []) }
    }

    /// A read under way when the pool closes cleanly ends first, and the writer, closing after it, moves the WAL
    /// into the file and deletes it (a read-only connection closing last could not); no write is taken
    /// meanwhile.
    @Test func theWriterClosesAfterTheReadUnderWayAndTheWALGoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("pool.sqlite")
        let pool = try SQLitePool(path: path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex<Int?>(nil)
        DispatchQueue.global().async {
            let value = try? pool.read { db -> Int? in
                reading.signal()
                release.wait()
                return try db.scalar(Int.self, sql: "SELECT x FROM t")
            }
            result.withLock { $0 = value ?? nil }
            finished.signal()
        }
        reading.wait()
        pool.closeCleanly()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the writer waits for the read")
        #expect(throws: (any Error).self) { try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") } }
        release.signal()
        finished.wait()
        #expect(result.withLock { $0 } == 1)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aTransactionThatThrowsChangesNothing() throws {
        let db = try SQLiteConnection(path: ":memory:")
        defer { db.close() }
        try db.execute(sql: "CREATE TABLE t (x INTEGER)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.inTransaction(.immediate) {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(try db.scalar(Int.self, sql: "SELECT count(*) FROM t") == 0)
        #expect(db.isAutocommit)
    }

    /// Memory kept beside the file (what the store last wrote) follows the file: an action waiting
    /// for the commit runs after it, and never for a transaction rolled back.
    @Test func anActionAfterTheCommitRunsOnlyWhenItCommits() throws {
        let db = try SQLiteConnection(path: ":memory:")
        defer { db.close() }
        try db.execute(sql: "CREATE TABLE t (x INTEGER)")
        var ran: [String] = []
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.inTransaction(.immediate) {
                db.afterCommit { ran.append("rolled back") }
                throw Abort()
            }
        }
        try db.inTransaction(.immediate) {
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            db.afterCommit {
                ran.append("committed \((try? db.scalar(Int.self, sql: "SELECT count(*) FROM t")) ?? -1)")
            }
            #expect(ran.isEmpty)
        }
        #expect(ran == ["committed 1"])
        #expect(db.isAutocommit)
    }

    /// A read runs on a reader of its own: it neither waits for a write that is still open nor sees it.
    @Test func aReadDoesNotWaitForAnOpenWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pool = try SQLitePool(path: try Self.makeDatabase(in: folder))
        defer { pool.close() }
        let writeIsOpen = DispatchSemaphore(value: 0)
        let readIsDone = DispatchSemaphore(value: 0)
        let writeEnded = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? pool.write { db in
                try db.execute(sql: "INSERT INTO t VALUES ('uncommitted')")
                writeIsOpen.signal()
                // Bounded: a read that waited for this write would be let through after 10 s.
                _ = readIsDone.wait(timeout: .now() + 10)
            }
            writeEnded.signal()
        }
        #expect(writeIsOpen.wait(timeout: .now() + 10) == .success)
        let count = try pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
        readIsDone.signal()
        // A read that waited would have run after the commit, and counted its row.
        #expect(count == 200)
        #expect(writeEnded.wait(timeout: .now() + 10) == .success)
    }

    @Test func garbageOverTheHeaderIsReportedAsNotADatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.makeDatabase(in: folder)
        try Self.scribble(path, offset: 0, count: 100)

        let error = try #require(throws: SQLiteError.self) { _ = try SQLitePool(path: path) }
        #expect(error.resultCode == .notADatabase)
        #expect(CorruptionRecovery.cause(of: error) == .notADatabase)
    }

    @Test func aScribbledPageIsReportedAsDamage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.makeDatabase(in: folder)
        // Page 3: a leaf of the table (page 1 holds the schema, page 2 the table's root).
        try Self.scribble(path, offset: 2 * 4096, count: 4096)

        // The file opens (its header and schema are intact); the scan meets the damage.
        let pool = try SQLitePool(path: path)
        defer { pool.close() }
        let error = try #require(throws: SQLiteError.self) {
            _ = try pool.read { db in try db.scalar(Int.self, sql: "SELECT sum(length(x)) FROM t") }
        }
        #expect(error.resultCode == .corrupt)
        #expect(CorruptionRecovery.cause(of: error) == .damaged)
        // The process is still up and the pool still answers what it can read.
        #expect(try pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM sqlite_master") } == 1)
    }

    @Test func aLockHeldTooLongIsBusyNotDamage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.makeDatabase(in: folder)
        let holder = try SQLiteConnection(path: path)
        defer { holder.close() }
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let pool = try SQLitePool(path: path, busyTimeoutMs: 0)
        defer { pool.close() }

        let error = try #require(throws: SQLiteError.self) {
            try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES ('more')") }
        }
        #expect(error.resultCode == .busy)
        #expect(CorruptionRecovery.cause(of: error) == nil)
        #expect(StoreUnavailable(path: path, error: error).reason == .busy)
        try holder.execute(sql: "ROLLBACK")
    }

    /// Extended result codes (on for every connection) classify by their primary code: an I/O error stays
    /// about the machine, a damaged virtual table is damage, a stale WAL snapshot is a busy database.
    @Test func extendedCodesClassifyByTheirPrimaryCode() {
        let ioErrorRead = SQLiteError(code: 266, message: "disk I/O error")  // SQLITE_IOERR_READ
        #expect(ioErrorRead.resultCode == .ioError)
        #expect(CorruptionRecovery.cause(of: ioErrorRead) == nil)
        #expect(StoreUnavailable(path: "x", error: ioErrorRead).reason == .ioError)
        let corruptTable = SQLiteError(code: 267, message: "malformed")  // SQLITE_CORRUPT_VTAB
        #expect(CorruptionRecovery.cause(of: corruptTable) == .damaged)
        let busySnapshot = SQLiteError(code: 517, message: "busy")  // SQLITE_BUSY_SNAPSHOT
        #expect(CorruptionRecovery.cause(of: busySnapshot) == nil)
        #expect(StoreUnavailable(path: "x", error: busySnapshot).reason == .busy)
        #expect(busySnapshot.description == "SQLite error 5: busy")
    }

    /// A database in WAL mode, as the store's, with 4 KiB pages and one table that spans many of them;
    /// closed, so its WAL is folded in and gone and bytes written into the file are what SQLite reads.
    private static func makeDatabase(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("layer.sqlite")
        let db = try SQLiteConnection(path: path)
        try db.execute(sql: "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE t (x TEXT)")
        try db.inTransaction(.immediate) {
            for index in 0..<200 {
                try db.execute(
                    sql: "INSERT INTO t VALUES (?)", arguments: [String(repeating: "row \(index) ", count: 40)])
            }
        }
        db.close()
        return path
    }

    private static func scribble(_ path: String, offset: UInt64, count: Int) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: count))
    }
}
