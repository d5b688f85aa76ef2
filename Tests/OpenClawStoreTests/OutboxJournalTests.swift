import Foundation
import OpenClawChat
import Testing

@testable import OpenClawStore

@Suite("Outbox journal")
struct OutboxJournalTests {
    private func message(_ id: String, text: String = "hello") -> OutboxMessage {
        OutboxMessage(id: id, gateway: "gw", sessionKey: "main", text: text, createdAtMs: 1)
    }

    @Test func replaysPutsUpdatesAndRemovesInEnqueueOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journal = OutboxJournal(databasePath: folder.file("chat.sqlite"))
        #expect(journal.replay() == nil)
        try journal.rewrite([])
        _ = try journal.append(.put(message("a")), count: 1)
        _ = try journal.append(.put(message("b")), count: 2)
        var failed = message("a")
        failed.state = .failed(reason: "too large")
        _ = try journal.append(.put(failed), count: 2)
        _ = try journal.append(.remove(gateway: "gw", id: "b"), count: 1)
        _ = try journal.append(.put(message("c")), count: 2)

        let replay = try #require(journal.replay())
        #expect(replay.messages == [failed, message("c")])
        #expect(replay.removed == [["gw", "b"]])
        #expect(replay.lostCount == 0)
        #expect(replay.damagedRecords == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: journal.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func aTornLastRecordIsIgnoredAndTheNextAppendStartsAFreshLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journal = OutboxJournal(databasePath: folder.file("chat.sqlite"))
        try journal.rewrite([message("a")])
        _ = try journal.append(.put(message("b")), count: 2)
        // A crash in the middle of the next append: half a record, no newline.
        let full = try Data(contentsOf: URL(fileURLWithPath: journal.path))
        let lastLine = full.split(separator: UInt8(ascii: "\n")).last ?? Data()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: lastLine.prefix(lastLine.count / 2))
        try handle.close()

        let torn = try #require(journal.replay())
        #expect(torn.messages == [message("a"), message("b")])
        #expect(torn.damagedRecords == 1)
        #expect(torn.lostCount == 0)

        _ = try journal.append(.put(message("c")), count: 3)
        #expect(try #require(journal.replay()).messages == [message("a"), message("b"), message("c")])
    }

    @Test func theStoreCompactsTheJournalToItsLiveRows() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let store = try SQLiteChatStore(path: path)
        let text = String(repeating: "x", count: 2000)
        // Far more journal traffic than the slack allows: 400 messages through the outbox, 2 kept.
        for index in 0..<400 {
            try await store.enqueue(message("m\(index)", text: text))
            if index >= 2 { try await store.removeFromOutbox(id: "m\(index)", gateway: "gw") }
        }
        let size = try #require(StoreFile.size(path + "-outbox"))
        #expect(size < 200 * 1024, "the journal grew to \(size) bytes")
        let replay = try #require(OutboxJournal(databasePath: path).replay())
        #expect(replay.messages.map(\.id) == ["m0", "m1"])
        #expect(replay.lostCount == 0)
    }
}
