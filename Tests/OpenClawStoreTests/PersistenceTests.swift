import Foundation
import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawStore

@Suite("SQLite store on disk")
struct PersistenceTests {
    @Test func everythingSurvivesAReopen() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("nested/state/chat.sqlite")
        let outboxMessage = OutboxMessage(
            id: "idem-1", gateway: "gw", sessionKey: "main", text: "are you there?", createdAtMs: 5,
            state: .ambiguous, attempts: 1, lastAttemptAtMs: 6)
        let messages = [
            stored("a", text: "Where is the lighthouse?"), stored("b", text: "On the northern cape.", role: .assistant),
        ]
        do {
            let store = try SQLiteChatStore(path: path)
            try await store.record(messages, gateway: "gw", sessionKey: "main")
            try await store.enqueue(outboxMessage)
            #expect(store.recoveredFromCorruption == nil)
        }
        let reopened = try SQLiteChatStore(path: path)
        #expect(reopened.recoveredFromCorruption == nil)
        #expect(try await reopened.latestMessages(gateway: "gw", sessionKey: "main", limit: 10) == messages)
        #expect(try await reopened.outbox(gateway: "gw") == [outboxMessage])
        let hits = try await reopened.search("lighthouse", gateway: "gw", limit: 5)
        #expect(hits.map(\.messageId) == ["row-a"])
        // Writing after the reopen keeps the order and the index.
        try await reopened.record([messages[1], stored("c")], gateway: "gw", sessionKey: "main")
        #expect(try await reopened.keys() == ["a", "b", "c"])
        #expect(try await reopened.search("northern cape", gateway: nil, limit: 5).map(\.messageId) == ["row-b"])
    }

    /// A store at `path` with message `a` written, still in the WAL, and a reader open: a read keeps a
    /// read-only connection, as an app that has shown its chat does (one that closed last could not
    /// delete the WAL).
    private static func storeWithItsWriteInTheWAL(at path: String) async throws -> SQLiteChatStore {
        let store = try SQLiteChatStore(path: path)
        try await store.record([stored("a", text: "kept in the file")], gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["a"])
        #expect((StoreFile.size(path + "-wal") ?? 0) > 0, "the write went to the WAL first")
        return store
    }

    /// A store closed leaves its writes in the file and no WAL behind, which is what tells the next open
    /// that it needs no whole-file check; a call after the close fails instead of reopening the file.
    @Test func closingMovesTheWALIntoTheFileAndEndsTheStore() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let store = try await Self.storeWithItsWriteInTheWAL(at: path)
        store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        await #expect(throws: (any Error).self) { try await store.outbox(gateway: "gw") }
        store.close()

        let reopened = try SQLiteChatStore(path: path)
        #expect(try await reopened.keys() == ["a"])
    }

    @Test func aCheckpointEmptiesTheWALAndLeavesTheStoreOpen() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("chat.sqlite")
        let store = try await Self.storeWithItsWriteInTheWAL(at: path)
        #expect(try await store.checkpoint())
        #expect((StoreFile.size(path + "-wal") ?? 0) == 0)
        // A process ended here (no close) leaves the file complete: a new open reads it.
        let launchedAgain = try SQLiteChatStore(path: path)
        #expect(try await launchedAgain.keys() == ["a"])
        launchedAgain.close()

        try await store.record([stored("b")], gateway: "gw", sessionKey: "main")
        #expect(try await store.keys() == ["a", "b"])
        store.close()
    }

    @Test func fileAndNewFoldersArePrivate() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("fresh/chat.sqlite")
        let store = try SQLiteChatStore(path: path)
        try await store.record(page("a"), gateway: "gw", sessionKey: "main")
        #expect(try permissions(path) == 0o600)
        #expect(try permissions(folder.file("fresh")) == 0o700)
        for companion in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + companion) {
            #expect(try permissions(path + companion) & 0o077 == 0, "\(companion) must not be readable by others")
        }
    }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
