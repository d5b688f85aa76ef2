import OpenClawChat
import OpenClawProtocol
import OpenClawStore
import Testing

/// The gateway's compaction and reset divider rows are kept by the store as they came, `__openclaw`
/// kind and token counts included, so a transcript read back offline still shows them as dividers.
@Suite("SQLite store: transcript boundaries")
struct BoundaryRowTests {
    @Test func dividerRowsSurviveTheStore() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let compaction = StoredMessage(
            id: "row-c", historyKey: "c",
            message: ChatMessage(
                role: .system, content: [.text("Compaction")], timestampMs: 5,
                entry: ChatTranscriptEntryInfo(
                    id: "c", seq: 2, kind: "compaction", tokensBefore: 9000, tokensAfter: 1200)
            ))
        let reset = StoredMessage(
            id: "row-r", historyKey: "r",
            message: ChatMessage(
                role: .system, content: [.text("Reset")], timestampMs: 6,
                entry: ChatTranscriptEntryInfo(id: "r", seq: 3, kind: "reset")))
        let rows = [stored("a"), compaction, reset]
        do {
            let store = try SQLiteChatStore(path: folder.file("chat.sqlite"))
            try await store.record(rows, gateway: "gw", sessionKey: "main")
        }
        let reopened = try SQLiteChatStore(path: folder.file("chat.sqlite"))
        let read = try await reopened.latestMessages(gateway: "gw", sessionKey: "main", limit: 10)
        #expect(read == rows)
        #expect(
            read.map { TranscriptBoundary($0.message.entry) } == [
                nil, .compaction(tokensBefore: 9000, tokensAfter: 1200), .reset,
            ])
    }
}
