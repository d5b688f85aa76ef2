import Foundation
import Logging
import OpenClawChat
import Testing

@testable import OpenClawStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Damage of every kind to a database holding two queued messages: after reopening, both are back
/// in the outbox (same keys, so delivered exactly once), or the report says exactly how many are not;
/// and trouble a new file would not fix leaves the file, and its outbox, where it was.
@Suite("SQLite store: the outbox survives a damaged database")
struct OutboxRecoveryTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case headerGarbage, truncatedToHalf, truncatedTo4KB, scribbledPages, zeroBytes
        var testDescription: String { rawValue }
    }

    @Test(arguments: Damage.allCases)
    func bothQueuedMessagesSurvive(_ damage: Damage) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let queued = try await makeStoreWithTwoQueuedMessages(at: path)
        try Self.apply(damage, to: path)

        let log = CapturedLog()
        let store = try SQLiteChatStore(path: path, logger: log.logger)
        // Damage is found where SQLite meets it: by the open, or by the first statement reading a bad page.
        _ = try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: .max)
        let outbox = try await store.outbox(gateway: "gw")
        let recovery = try #require(store.recovery, "the damage went unnoticed")
        #expect(recovery.movedTo.path.hasPrefix(path + ".corrupt-"))
        #expect(FileManager.default.fileExists(atPath: recovery.movedTo.path))
        #expect(recovery.recoveredMessages == 2)
        #expect(recovery.lostMessages == 0)
        #expect(
            recovery.cause == (damage == .zeroBytes ? .emptied : damage == .headerGarbage ? .notADatabase : .damaged))
        #expect(outbox == queued)
        let warnings = log.records.filter { $0.level >= .notice }.map(\.message)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("2 unsent messages recovered") == true, "\(warnings)")

        // The recovered store is whole: usable, and its journal reflects it for the next accident.
        try await store.record(page("a", "b"), gateway: "gw", sessionKey: "main")
        try await store.removeFromOutbox(id: queued[0].id, gateway: "gw")
        let reopened = try SQLiteChatStore(path: path)
        #expect(reopened.recovery == nil)
        #expect(try await reopened.outbox(gateway: "gw") == [queued[1]])
    }

    @Test func afterAnUncleanShutdownTheOpenChecksTheWholeFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let queued = try await makeStoreWithTwoQueuedMessages(at: path)
        // A transcript page in the middle scribbled over: no statement of the open reads it.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let pages = try handle.seekToEnd() / 4096
        try handle.seek(toOffset: pages / 2 * 4096)
        var generator = SplitMix(seed: 11)
        try handle.write(contentsOf: Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        try handle.close()
        // A WAL left behind, as by a process that died (here: one still holding it open).
        let survivor = try SQLiteConnection(path: path)
        defer { survivor.close() }
        _ = try survivor.scalar(String.self, sql: "PRAGMA journal_mode = WAL")
        try survivor.execute(sql: "CREATE TABLE scratch (x); DROP TABLE scratch")
        #expect((StoreFile.size(path + "-wal") ?? 0) > 0)

        let store = try SQLiteChatStore(path: path, logger: CapturedLog().logger)
        let recovery = try #require(store.recovery, "the open did not check the file")
        #expect(recovery.cause == .damaged)
        #expect(recovery.detail.contains("integrity check failed") || recovery.detail.contains("SQLite error 11"))
        #expect(try await store.outbox(gateway: "gw") == queued)
    }

    @Test func aJournalDamagedToo_reportsTheExactNumberLost() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let queued = try await makeStoreWithTwoQueuedMessages(at: path)
        // Scribble over the first message's record in the journal (the snapshot header, then its two puts).
        let journalPath = path + "-outbox"
        var lines = try String(contentsOfFile: journalPath, encoding: .utf8).split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains(queued[0].id) })
        lines[index] = lines[index].replacingOccurrences(of: "\"text\"", with: "\"t3xt\"")
        try (lines.joined(separator: "\n") + "\n").write(toFile: journalPath, atomically: false, encoding: .utf8)
        try Self.apply(.headerGarbage, to: path)

        let store = try SQLiteChatStore(path: path, logger: CapturedLog().logger)
        let recovery = try #require(store.recovery)
        #expect(recovery.recoveredMessages == 1)
        #expect(recovery.lostMessages == 1)
        #expect(try await store.outbox(gateway: "gw") == [queued[1]])
    }

    @Test func withoutAJournalAnUnreadableOutboxIsReportedAsUnknown() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        _ = try await makeStoreWithTwoQueuedMessages(at: path)
        // A store written before the journal existed.
        try FileManager.default.removeItem(atPath: path + "-outbox")
        try Self.apply(.headerGarbage, to: path)

        let store = try SQLiteChatStore(path: path, logger: CapturedLog().logger)
        let recovery = try #require(store.recovery)
        #expect(recovery.recoveredMessages == 0)
        #expect(recovery.lostMessages == nil)
    }

    @Test func aReadOnlyFileIsLeftAloneWithItsOutbox() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let queued = try await makeStoreWithTwoQueuedMessages(at: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let restore = try makeReadOnly(path)
        defer { restore() }

        let error = try #require(throws: StoreUnavailable.self) { try SQLiteChatStore(path: path) }
        #expect(error.reason == .readOnly)
        #expect(try folder.contents() == ["chat.sqlite", "chat.sqlite-outbox"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)

        restore()
        let store = try SQLiteChatStore(path: path)
        #expect(store.recovery == nil)
        #expect(try await store.outbox(gateway: "gw") == queued)
    }

    @Test(arguments: ["-wal", "-outbox"])
    func aDirectoryInTheWayIsLeftAloneWithTheOutbox(_ suffix: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let queued = try await makeStoreWithTwoQueuedMessages(at: path)
        let journal = try Data(contentsOf: URL(fileURLWithPath: path + "-outbox"))
        if suffix == "-outbox" { try FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.createDirectory(atPath: path + suffix, withIntermediateDirectories: false)

        let error = try #require(throws: StoreUnavailable.self) { try SQLiteChatStore(path: path) }
        #expect(error.reason == .cannotOpen, "\(error)")
        #expect(try folder.contents().allSatisfy { !$0.contains(".corrupt-") })

        try FileManager.default.removeItem(atPath: path + suffix)
        if suffix == "-outbox" { try journal.write(to: URL(fileURLWithPath: path + suffix)) }
        let store = try SQLiteChatStore(path: path)
        #expect(store.recovery == nil)
        #expect(try await store.outbox(gateway: "gw") == queued)
    }

    // MARK: Setup and damage

    /// A store whose two queued messages were enqueued after many transcript pages, with text long
    /// enough that the outbox's rows live on pages at the end of the file (as in a store used for a
    /// while), so losing the file's tail loses them. Closed and checkpointed: the damage hits the file.
    private func makeStoreWithTwoQueuedMessages(at path: String) async throws -> [OutboxMessage] {
        let queued = [
            OutboxMessage(
                id: "key-1", gateway: "gw", sessionKey: "main", text: String(repeating: "first ", count: 500),
                createdAtMs: 1),
            OutboxMessage(
                id: "key-2", gateway: "gw", sessionKey: "main", text: String(repeating: "second ", count: 500),
                thinking: "low", createdAtMs: 2, state: .ambiguous, attempts: 1, lastAttemptAtMs: 3),
        ]
        do {
            let store = try SQLiteChatStore(path: path)
            let long = String(repeating: "lorem ipsum dolor sit amet ", count: 200)
            try await store.record((0..<200).map { stored("m\($0)", text: long) }, gateway: "gw", sessionKey: "main")
            for message in queued { try await store.enqueue(message) }
            // Closed here: the write queue releases the store late, and a close then would move the WAL into the
            // file beside the journal-mode change below.
            store.close()
        }
        let db = try SQLiteConnection(path: path)
        try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
        db.close()
        return queued
    }

    static func apply(_ damage: Damage, to path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        var generator = SplitMix(seed: 2026)
        func random(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }) }
        switch damage {
        case .headerGarbage:
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: random(100))
        case .truncatedToHalf:
            try handle.truncate(atOffset: size / 2)
        case .truncatedTo4KB:
            try handle.truncate(atOffset: 4096)
        case .scribbledPages:
            // Random bytes over several pages, the outbox's last ones among them; the header survives.
            let pages = size / 4096
            for page in [pages / 4, pages / 2, 3 * pages / 4, pages - 2, pages - 1] {
                try handle.seek(toOffset: page * 4096)
                try handle.write(contentsOf: random(4096))
            }
        case .zeroBytes:
            try handle.truncate(atOffset: 0)
        }
    }

    /// Makes `path` unwritable even for root (an immutable file there), and returns how to undo it.
    private func makeReadOnly(_ path: String) throws -> () -> Void {
        if geteuid() != 0 {
            chmod(path, 0o400)
            return { chmod(path, 0o600) }
        }
        try runChattr("+i", path)
        try #require(access(path, W_OK) != 0, "chattr +i did not make the file read-only")
        return { try? runChattr("-i", path) }
    }

    private func runChattr(_ flag: String, _ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "chattr \(flag) failed")
    }
}
