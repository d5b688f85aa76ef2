import Foundation
import OpenClawChat
import OpenClawProtocol
import OpenClawTestSupport
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
        // Closed cleanly: no WAL. The read-only connection leaves an empty one and its index (as any reader
        // of a WAL file does), and does not write the database. The store closes when the write queue lets
        // go of it, a moment after the last write answered (seconds, on a loaded machine).
        let closed = ["transcripts.sqlite", "transcripts.sqlite-outbox"]
        #expect(await eventually { (try? folder.contents()) == closed })
        let before = try folder.contents()
        #expect(before == closed)
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let queries: [(String, String?)] = [("tomato", "home"), ("tomatoes", nil), ("basil", "work"), ("rain", nil)]
        var readOnly: [[SearchHit]] = []
        for (query, gateway) in queries {
            readOnly.append(
                try #require(StoredTranscriptSearch.hits(path: path, query: query, gateway: gateway, limit: 10)))
        }
        #expect(try folder.contents() == before + ["transcripts.sqlite-shm", "transcripts.sqlite-wal"])
        #expect(StoreFile.size(path + "-wal") == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)

        let reopened = try SQLiteChatStore(path: path)
        for ((query, gateway), hits) in zip(queries, readOnly) {
            #expect(try await reopened.search(query, gateway: gateway, limit: 10) == hits, "\(query)")
        }
        #expect(readOnly[1].count == 3)
        #expect(StoredTranscriptSearch.hits(path: path, query: "  ", gateway: nil, limit: 10) == [])
    }

    @Test func readsWhatALostSessionLeftInTheWAL() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("transcripts.sqlite")
        let copy = folder.file("crashed.sqlite")
        let store = try SQLiteChatStore(path: path)
        try await store.record([stored("a1", text: "the lighthouse keeper")], gateway: "home", sessionKey: "main")
        // What a crash leaves: the file with its WAL, never checkpointed.
        #expect((StoreFile.size(path + "-wal") ?? 0) > 0)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        let hits = try #require(StoredTranscriptSearch.hits(path: copy, query: "lighthouse", gateway: nil, limit: 5))
        #expect(hits.map(\.messageId) == ["row-a1"])
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

        // A store from before file names were searchable: searching it unmigrated would miss them, so the
        // usual open, which migrates it, answers instead.
        let older = folder.file("older.sqlite")
        let db = try SQLiteConnection(path: older)
        try StoreSchema.migrator.migrate(db, upTo: "v3.outbox-attachments")
        try db.inTransaction(.immediate) {
            try db.execute(
                sql: """
                    INSERT INTO messages (gateway, session_key, id, history_key, role, text, message_json, position)
                    VALUES ('gw', 'main', 'plain', 'plain', 'user', 'hello there', '{}', 0)
                    """)
        }
        db.close()
        #expect(StoredTranscriptSearch.hits(path: older, query: "hello", gateway: nil, limit: 5) == nil)
    }
}
