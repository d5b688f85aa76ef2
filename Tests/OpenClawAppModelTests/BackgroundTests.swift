import Foundation
import OpenClawAppModel
import OpenClawChat
import OpenClawProtocol
import OpenClawStore
import Testing

/// The app going to the background, where the system may end it without a word: what it wrote must not
/// cost the next launch a check of the whole store.
@Suite("App: going to the background")
@MainActor
struct BackgroundTests {
    @Test func theChatStoresWALIsEmptiedIntoItsFile() async throws {
        let folder = NSTemporaryDirectory() + "openclaw-app-background-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/chat.sqlite"
        let store = try SQLiteChatStore(path: path)
        defer { store.close() }
        let message = StoredMessage(
            id: "row-1", historyKey: "1",
            message: ChatMessage(role: .user, content: [.text("hello")], entry: ChatTranscriptEntryInfo(id: "1")))
        try await store.record([message], gateway: "gw", sessionKey: "main")
        #expect(try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: 10).count == 1)
        #expect(Self.size(path + "-wal") > 0, "the write went to the WAL first")

        let app = AppModel(dependencies: AppHarness.dependencies(chatStore: store))
        await app.scenePhaseChanged(active: false)
        #expect(Self.size(path + "-wal") > 0, "leaving the foreground alone does not write")
        await app.enteredBackground()
        #expect(Self.size(path + "-wal") == 0)
        #expect(try await store.latestMessages(gateway: "gw", sessionKey: "main", limit: 10).count == 1)
    }

    private static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
