import Foundation
import Logging
import OpenClawChat
import Testing

@testable import OpenClawStore

/// The database and its outbox journal both damaged (issue 38.5): some queued messages cannot come
/// back, and the report says how many — exactly when the evidence allows (a queued file's folder no
/// recovered message names), as a bound otherwise — never "nothing lost" when the journal was damaged.
@Suite("SQLite store: database and outbox journal both damaged")
struct BothFilesDamagedTests {
    enum JournalDamage: String, CaseIterable, CustomTestStringConvertible {
        /// Cut inside its last record (the message with a file): the last intact record's count says
        /// two, and two come back — only the damage and the file's folder show a third existed.
        case lastRecordTorn
        /// Random bytes over all of it: no record is intact.
        case scribbledWhole
        var testDescription: String { rawValue }
    }

    @Test(arguments: JournalDamage.allCases)
    func theWarningSaysHowManyQueuedMessagesCouldNotBeRecovered(_ damage: JournalDamage) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let queued = try await Self.storeWithThreeQueuedMessages(at: path)
        try Self.damage(journal: path + "-outbox", damage)
        try OutboxRecoveryTests.apply(.headerGarbage, to: path)

        let log = CapturedLog()
        let store = try SQLiteChatStore(path: path, logger: log.logger)
        let recovery = try #require(store.recovery)
        let outbox = try await store.outbox(gateway: "gw")
        switch damage {
        case .lastRecordTorn:
            #expect(outbox == Array(queued.prefix(2)))
            #expect(recovery.recoveredMessages == 2)
            #expect(recovery.lostMessages == 1)
            #expect(recovery.warning.contains("1 queued message could not be recovered"), "\(recovery.warning)")
        case .scribbledWhole:
            #expect(outbox.isEmpty)
            #expect(recovery.recoveredMessages == 0)
            // The file's folder proves one; the damaged bytes could have held the other two.
            #expect(recovery.lostMessages == 1)
            let most = try #require(recovery.lostMessagesAtMost)
            #expect(most >= 3)
            #expect(
                recovery.warning.contains("Between 1 and \(most) queued messages could not be recovered"),
                "\(recovery.warning)")
        }
        let logged = log.records.filter { $0.level >= .notice }.map(\.message).joined()
        #expect(logged.contains("could not be recovered"), "\(logged)")
    }

    /// Three queued messages after many transcript pages (their rows at the end of the file); the
    /// last with a file, as a photo queued offline.
    static func storeWithThreeQueuedMessages(at path: String) async throws -> [OutboxMessage] {
        let queued = [
            OutboxMessage(id: "key-1", gateway: "gw", sessionKey: "main", text: "first", createdAtMs: 1),
            OutboxMessage(id: "key-2", gateway: "gw", sessionKey: "main", text: "second", createdAtMs: 2),
            OutboxMessage(
                id: "key-3", gateway: "gw", sessionKey: "main", text: "a photo", createdAtMs: 3,
                attachments: [OpenClawChat.Attachment(bytes: OutboxAttachmentTests.png, fileName: "photo.png")]),
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

    static func damage(journal path: String, _ damage: JournalDamage) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        switch damage {
        case .lastRecordTorn:
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let lastLine = try #require(text.split(separator: "\n").last)
            try handle.truncate(atOffset: size - UInt64(lastLine.utf8.count / 2) - 1)
        case .scribbledWhole:
            var generator = SplitMix(seed: 38)
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data((0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        }
    }
}
