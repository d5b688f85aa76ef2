import Foundation
import Logging
import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawStore

@Suite("SQLite store corruption recovery")
struct CorruptionTests {
    @Test func garbageFileIsMovedAsideAndReplaced() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        var generator = SplitMix(seed: 42)
        let garbage = (0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try Data(garbage).write(to: URL(fileURLWithPath: path))

        let log = CapturedLog()
        let store = try SQLiteChatStore(path: path, logger: log.logger)
        let aside = try #require(store.recoveredFromCorruption)
        #expect(aside.path.hasPrefix(path + ".corrupt-"))
        #expect(try Data(contentsOf: aside) == Data(garbage))
        try await expectUsable(store)
        #expect(try permissions(path) == 0o600)

        let warnings = log.records.filter { $0.level >= .notice }
        #expect(warnings.count == 1)
        let line = try #require(warnings.first?.message)
        #expect(line.contains(path) && line.contains(aside.path) && line.contains("re-read from the gateway"))
        #expect(!line.contains("\n"))

        // The next open finds a healthy file and says nothing.
        let again = CapturedLog()
        let reopened = try SQLiteChatStore(path: path, logger: again.logger)
        #expect(reopened.recoveredFromCorruption == nil)
        #expect(again.records.isEmpty)
        #expect(try await reopened.keys() == ["a", "b"])
    }

    @Test func truncatedDatabaseIsRecoveredKeepingTheOutboxWhenReadable() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let unsent = OutboxMessage(id: "k1", gateway: "gw", sessionKey: "main", text: "keep me", createdAtMs: 1)
        do {
            let store = try SQLiteChatStore(path: path)
            try await store.enqueue(unsent)
            // Enough text that the messages table spans many pages, beyond the outbox's.
            let long = String(repeating: "lorem ipsum dolor sit amet ", count: 200)
            try await store.record((0..<300).map { stored("m\($0)", text: long) }, gateway: "gw", sessionKey: "main")
            // Closed here: the write queue releases the store late, and a close then would move the WAL into the
            // file beside the journal-mode change below.
            store.close()
        }
        try checkpointAndClose(path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue
        #expect(size > 100_000)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()

        let log = CapturedLog()
        let store = try SQLiteChatStore(path: path, logger: log.logger)
        // The open does not read the whole file: the first read of a lost page finds the damage.
        _ = try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: .max)
        let aside = try #require(store.recoveredFromCorruption)
        #expect(FileManager.default.fileExists(atPath: aside.path))
        #expect(try await store.outbox(gateway: "gw") == [unsent])
        #expect(try await store.keys() == [])
        try await expectUsable(store)
        #expect(log.records.filter { $0.level >= .notice }.count == 1)
        #expect(log.records.first?.message.contains("1 unsent message recovered") == true, "\(log.records)")
    }

    @Test func damagedPagesBehindAnIntactHeaderAreFoundByTheFirstReadOfThem() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        do {
            let store = try SQLiteChatStore(path: path)
            let long = String(repeating: "lorem ipsum dolor sit amet ", count: 200)
            try await store.record((0..<300).map { stored("m\($0)", text: long) }, gateway: "gw", sessionKey: "main")
            // Closed here: the write queue releases the store late, and a close then would move the WAL into the
            // file beside the journal-mode change below.
            store.close()
        }
        try checkpointAndClose(path)
        // Scribble over pages in the second half: the header and schema stay valid, so the file
        // opens, and SQLite reports the damage when a statement reads those pages.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        var generator = SplitMix(seed: 7)
        try handle.write(contentsOf: Data((0..<40_960).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        try handle.close()

        let log = CapturedLog()
        let store = try SQLiteChatStore(path: path, logger: log.logger)
        _ = try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: .max)
        #expect(store.recoveredFromCorruption != nil)
        #expect(log.records.count == 1)
        // SQLite reports such damage as SQLITE_CORRUPT (11) on the statement that reads it.
        let line = log.records.first?.message ?? ""
        #expect(line.contains("integrity check failed") || line.contains("SQLite error 11"), "\(line)")
        try await expectUsable(store)
    }

    @Test func emptyAndForeignFilesAreHandled() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A zero-byte file is simply a new database.
        let empty = folder.file("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let fresh = try SQLiteChatStore(path: empty)
        #expect(fresh.recoveredFromCorruption == nil)
        try await expectUsable(fresh)

        // Another program's SQLite database with a clashing table: the migration fails, so it is moved.
        let foreign = folder.file("foreign.sqlite")
        do {
            let db = try SQLiteConnection(path: foreign)
            try db.execute(sql: "CREATE TABLE messages (x INTEGER)")
            db.close()
        }
        let log = CapturedLog()
        let store = try SQLiteChatStore(path: foreign, logger: log.logger)
        #expect(store.recoveredFromCorruption != nil)
        try await expectUsable(store)
    }

    @Test func companionFilesMoveWithTheDatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        for (suffix, byte) in [("", UInt8(1)), ("-wal", 2), ("-shm", 3)] {
            try Data([byte]).write(to: URL(fileURLWithPath: path + suffix))
        }
        // Something already moved aside in the same millisecond is not overwritten.
        try Data([9]).write(to: URL(fileURLWithPath: path + ".corrupt-1000"))
        let aside = try StoreFile.moveAside(path, epochMs: 1000)
        #expect(aside == path + ".corrupt-1000-2")
        #expect(
            try folder.contents() == [
                "chat.sqlite.corrupt-1000", "chat.sqlite.corrupt-1000-2", "chat.sqlite.corrupt-1000-2-shm",
                "chat.sqlite.corrupt-1000-2-wal",
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside + "-wal")) == Data([2]))
    }

    @Test func unusableLocationsThrowInsteadOfCrashing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The "database" is a directory: nothing to move aside sensibly, and nothing to crash on.
        let directory = folder.file("a-directory")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try SQLiteChatStore(path: directory) }
        // A parent that is a file.
        let file = folder.file("plain")
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        #expect(throws: (any Error).self) { try SQLiteChatStore(path: file + "/chat.sqlite") }
    }

    private func expectUsable(_ store: SQLiteChatStore) async throws {
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["a", "b"])
        #expect(try await store.search("message", gateway: "gw", limit: 5).count == 2)
    }

    /// Folds the WAL into the main file so that truncating the file really loses pages.
    private func checkpointAndClose(_ path: String) throws {
        let db = try SQLiteConnection(path: path)
        try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
        db.close()
    }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
