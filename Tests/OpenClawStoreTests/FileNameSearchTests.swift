import Foundation
import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawStore

/// Search finds a message by the names of its files as well as by its words, in new stores and in stores
/// written before file names were indexed.
@Suite("SQLite store: search by file name")
struct FileNameSearchTests {
    static func withFiles(_ key: String, text: String, files: [(String?, Bool)]) -> StoredMessage {
        let parts: [ChatContentPart] =
            [.text(text)]
            + files.map { name, isImage in
                let part = ChatMediaPart(mimeType: isImage ? "image/jpeg" : "application/pdf", fileName: name)
                return isImage ? .image(part) : .file(part)
            }
        return StoredMessage(
            id: "row-\(key)", historyKey: key,
            message: ChatMessage(role: .user, content: parts, timestampMs: 1, entry: ChatTranscriptEntryInfo(id: key)))
    }

    @Test func aMessageIsFoundByTheNameOfItsFileAndItsTextStillByItsWords() async throws {
        let store = try SQLiteChatStore(inMemoryWithLimits: .init())
        try await store.record(
            [
                Self.withFiles("a", text: "what do you see?", files: [("holiday-beach.jpg", true)]),
                Self.withFiles("b", text: "summarise this", files: [("quarterly-report.pdf", false), (nil, true)]),
                stored("c", text: "no files here"),
            ],
            gateway: "gw", sessionKey: "main")

        let beach = try await store.search("beach", gateway: "gw", limit: 10)
        #expect(beach.map(\.messageId) == ["row-a"])
        #expect(beach.first?.snippet.contains("[beach]") == true, "the name is what matched: \(beach)")
        #expect(try await store.search("quarterly-report.pdf", gateway: "gw", limit: 10).map(\.messageId) == ["row-b"])
        #expect(try await store.search("summarise", gateway: "gw", limit: 10).map(\.messageId) == ["row-b"])
        #expect(try await store.search("files", gateway: "gw", limit: 10).map(\.messageId) == ["row-c"])

        // Recording the page again with the name gone takes the name out of the index.
        try await store.record(
            [Self.withFiles("a", text: "what do you see?", files: [(nil, true)])], gateway: "gw", sessionKey: "main")
        #expect(try await store.search("beach", gateway: "gw", limit: 10).isEmpty)
    }

    @Test func aStoreWrittenBeforeFileNamesWereIndexedFindsThemAfterItsUpgrade() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        do {
            let db = try SQLiteConnection(path: path)
            try StoreSchema.migrator.migrate(db, upTo: "v3.outbox-attachments")
            try db.inTransaction(.immediate) {
                for (index, message) in [
                    Self.withFiles("old", text: "look", files: [("sunset.heic", true)]), stored("plain", text: "hello"),
                ].enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO messages (gateway, session_key, id, history_key, role, text, message_json,
                                position)
                            VALUES ('gw', 'main', ?, ?, 'user', ?, ?, ?)
                            """,
                        arguments: [
                            message.id, message.historyKey, message.message.text,
                            JSONSerializer.string(message.message.json), Double(index),
                        ])
                }
            }
            db.close()
        }

        let store = try SQLiteChatStore(path: path)
        #expect(try await store.search("sunset", gateway: "gw", limit: 10).map(\.messageId) == ["row-old"])
        #expect(try await store.search("hello", gateway: "gw", limit: 10).map(\.messageId) == ["row-plain"])
        #expect(try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: 10).count == 2)
    }
}
