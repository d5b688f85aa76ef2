import Foundation
import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawStore

/// Outbox messages keep their files: copied beside the database when queued, read from there by a later
/// launch, removed when the message leaves; never sent without them.
@Suite("SQLite store: outbox messages with attachments")
struct OutboxAttachmentTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<40_000).map { UInt8($0 % 251) }
    static let pdf: [UInt8] = Array("%PDF-1.7\n".utf8) + (0..<3_000_000).map { UInt8(($0 * 7) % 256) }

    /// A photo handed over as bytes (the picker) and a document on disk (`send --file`).
    static func message(folder: TemporaryFolder, id: String = "key-1") throws -> OutboxMessage {
        let document = folder.file("report.pdf")
        try Data(pdf).write(to: URL(fileURLWithPath: document))
        return OutboxMessage(
            id: id, gateway: "gw", sessionKey: "main", text: "look", createdAtMs: 1,
            attachments: [
                OpenClawChat.Attachment(bytes: png, fileName: "photo.png"),
                try OpenClawChat.Attachment.file(at: URL(fileURLWithPath: document)),
            ])
    }

    static func bytes(_ attachment: OpenClawChat.Attachment) throws -> [UInt8] {
        var bytes: [UInt8] = []
        _ = try attachment.outgoing.source.readChunks { bytes += $0 }
        return bytes
    }

    @Test func aQueuedMessageComesBackWithItsFilesAfterARestartAndTheOriginalsMayGo() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("state/chat.sqlite")
        let queued = try Self.message(folder: folder)
        try await SQLiteChatStore(path: path).enqueue(queued)
        try FileManager.default.removeItem(atPath: folder.file("report.pdf"))  // Sent from a temporary folder.

        let reopened = try SQLiteChatStore(path: path)
        let restored = try #require(try await reopened.outbox(gateway: "gw").first)
        #expect(restored.state == .queued)
        #expect(restored.attachments.map(\.summary) == queued.attachments.map(\.summary))
        #expect(restored.attachments.map(\.mediaType.mimeType) == ["image/png", "application/pdf"])
        #expect(try Self.bytes(restored.attachments[0]) == Self.png)
        #expect(try Self.bytes(restored.attachments[1]) == Self.pdf)
        let spool = OutboxSpool(databasePath: path)
        #expect(SecureFileMode.of(spool.folder(.init(gateway: "gw", id: "key-1"))) == 0o700)
        #expect(
            SecureFileMode.of(spool.file(.init(gateway: "gw", id: "key-1"), index: 1)) == 0o600,
            "private photos and files")

        // An update (an attempt, an ack) keeps the files; delivery removes them.
        var attempted = restored
        attempted.state = .sending
        attempted.attempts = 1
        try await reopened.update(attempted)
        #expect(try await SQLiteChatStore(path: path).outbox(gateway: "gw").first?.attachments.count == 2)
        try await reopened.removeFromOutbox(id: "key-1", gateway: "gw")
        #expect(!FileManager.default.fileExists(atPath: spool.folder(.init(gateway: "gw", id: "key-1"))))
    }

    @Test func aMessageWhoseCopyIsGoneIsFailedNamingTheFileNeverSentWithoutIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        try await SQLiteChatStore(path: path).enqueue(try Self.message(folder: folder))
        try FileManager.default.removeItem(
            atPath: OutboxSpool(databasePath: path).file(.init(gateway: "gw", id: "key-1"), index: 0))

        let restored = try #require(try await SQLiteChatStore(path: path).outbox(gateway: "gw").first)
        #expect(restored.state == .failed(reason: "its attachment “photo.png” is missing"))
        #expect(!restored.state.needsDelivery)
    }

    @Test func theFilesOfTheOutboxAreBoundedAndAMessageOverTheBoundIsRefusedWhole() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let store = try SQLiteChatStore(path: path, limits: ChatStoreLimits(maxOutboxAttachmentBytes: 5_000_000))
        try await store.enqueue(try Self.message(folder: folder, id: "first"))
        await #expect(throws: OutboxFilesOverLimit.self) {
            try await store.enqueue(try Self.message(folder: folder, id: "second"))
        }
        #expect(try await store.outbox(gateway: "gw").map(\.id) == ["first"])
        #expect(
            !FileManager.default.fileExists(
                atPath: OutboxSpool(databasePath: path).folder(.init(gateway: "gw", id: "second"))))
        let error = OutboxFilesOverLimit(messageBytes: 3_040_017, heldBytes: 3_040_017, limit: 5_000_000)
        #expect(
            error.description == "the files waiting to be sent would take 6.1 MB on this device, over its 5 MB limit")
    }

    /// The outbox's key is (gateway, id): two gateways' messages with one id keep their own files.
    @Test func twoGatewaysWithTheSameIdKeepTheirOwnFiles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteChatStore(path: folder.file("chat.sqlite"))
        let home = try Self.message(folder: folder, id: "same")
        var work = OutboxMessage(
            id: "same", gateway: "work", sessionKey: "main", text: "other", createdAtMs: 2,
            attachments: [OpenClawChat.Attachment(bytes: Array(Self.png.reversed()), fileName: "other.png")])
        work.thinking = nil
        try await store.enqueue(home)
        try await store.enqueue(work)
        #expect(try Self.bytes(try #require(try await store.outbox(gateway: "gw").first).attachments[0]) == Self.png)
        try await store.removeFromOutbox(id: "same", gateway: "work")
        let left = try #require(try await store.outbox(gateway: "gw").first)
        #expect(try Self.bytes(left.attachments[1]) == Self.pdf, "removing one gateway's message keeps the other's")
        #expect(try await store.outbox(gateway: "work").isEmpty)
    }

    @Test func folderNoOutboxMessageNamesAreRemovedAtOpen() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        try await SQLiteChatStore(path: path).enqueue(try Self.message(folder: folder))
        let spool = OutboxSpool(databasePath: path)
        // A crash after the copy, before the row: the folder of a message that never made it. A folder that
        // recent is left alone (another process may be about to write its row); an old one goes.
        let orphan = spool.folder(.init(gateway: "gw", id: "never-queued"))
        try FileManager.default.createDirectory(atPath: orphan, withIntermediateDirectories: true)
        _ = try SQLiteChatStore(path: path)
        #expect(FileManager.default.fileExists(atPath: orphan))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -OutboxSpool.orphanGrace - 60)], ofItemAtPath: orphan)

        _ = try SQLiteChatStore(path: path)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(FileManager.default.fileExists(atPath: spool.file(.init(gateway: "gw", id: "key-1"), index: 1)))
    }

    @Test func aDamagedDatabaseGivesBackTheMessageWithItsFiles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let queued = try Self.message(folder: folder)
        let first = try SQLiteChatStore(path: path)
        try await first.enqueue(queued)
        // Closed before the file is overwritten: the write queue releases the store late, and its connection,
        // closing then, would move its WAL into the overwritten file and repair it.
        first.close()
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")

        let store = try SQLiteChatStore(path: path)
        let restored = try #require(try await store.outbox(gateway: "gw").first)
        #expect(store.recovery?.recoveredMessages == 1)
        #expect(restored.state == .queued)
        #expect(try Self.bytes(restored.attachments[1]) == Self.pdf)
    }

    @Test func anInMemoryStoreKeepsCopiesTooAndRemovesThemWithItself() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var store: SQLiteChatStore? = try SQLiteChatStore(inMemoryWithLimits: .init())
        try await store?.enqueue(try Self.message(folder: folder))
        let restored = try #require(try await store?.outbox(gateway: "gw").first)
        #expect(try Self.bytes(restored.attachments[0]) == Self.png)
        guard case .file(let copy) = restored.attachments[0].source else {
            Issue.record("the bytes are read from a copy")
            return
        }
        store = nil
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }
}

enum SecureFileMode {
    static func of(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
    }
}
