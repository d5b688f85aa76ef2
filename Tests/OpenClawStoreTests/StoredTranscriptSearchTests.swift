import Foundation
import GRDB
import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawStore

@Suite("Searching a store's file read-only")
struct StoredTranscriptSearchTests {
    @Test func findsWhatTheOpenStoreFindsAndWritesNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("transcripts.sqlite")
        do {
            let store = try SQLiteChatStore(path: path)
            try await store.record(
                [
                    stored("a1", text: "Plant the tomatoes after the rain", timestampMs: 1),
                    stored("a2", text: "Tomatoes tomatoes, and basil", role: .assistant, timestampMs: 2),
                    stored("a3", text: "Nothing to see here", timestampMs: 3),
                ],
                gateway: "home", sessionKey: "garden")
            try await store.record(
                [stored("w1", text: "Tomatoes for the board", timestampMs: 4)], gateway: "work", sessionKey: "main")
        }
        let before = try folder.contents()
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date

        let reopened = try SQLiteChatStore(path: path)
        for (query, gateway) in [("tomato", "home" as String?), ("tomatoes", nil), ("basil", "work"), ("rain", nil)] {
            let readOnly = try #require(
                StoredTranscriptSearch.hits(path: path, query: query, gateway: gateway, limit: 10), "\(query)")
            let usual = try await reopened.search(query, gateway: gateway, limit: 10)
            #expect(readOnly == usual, "\(query) in \(gateway ?? "every gateway")")
        }
        #expect(StoredTranscriptSearch.hits(path: path, query: "tomatoes", gateway: nil, limit: 10)?.count == 3)
        #expect(StoredTranscriptSearch.hits(path: path, query: "  ", gateway: nil, limit: 10) == [])

        // The folder holds what the usual open left; the database file itself was not written.
        #expect(try folder.contents().filter { !$0.hasSuffix("-shm") && !$0.hasSuffix("-wal") } == before)
        let after = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(after == modified)
    }

    @Test func whatItCannotAnswerIsLeftToTheUsualOpen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.file("none.sqlite")
        #expect(StoredTranscriptSearch.hits(path: missing, query: "word", gateway: nil, limit: 5) == nil)
        #expect(!FileManager.default.fileExists(atPath: missing))

        let garbage = folder.file("garbage.sqlite")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            .write(to: URL(fileURLWithPath: garbage))
        #expect(StoredTranscriptSearch.hits(path: garbage, query: "word", gateway: nil, limit: 5) == nil)

        // A database from before the search table existed: the usual open migrates it.
        let older = folder.file("older.sqlite")
        let queue = try DatabaseQueue(path: older)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY)") }
        try queue.close()
        #expect(StoredTranscriptSearch.hits(path: older, query: "word", gateway: nil, limit: 5) == nil)
    }
}
