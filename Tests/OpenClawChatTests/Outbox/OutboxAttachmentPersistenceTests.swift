import OpenClawGateway
import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// A message with attachments goes to the store's outbox with them, like any message (the SQLite
/// store copies the files: `OutboxAttachmentTests`), so a later launch delivers it.
@MainActor
@Suite("Outbox: messages with attachments are stored with them")
struct OutboxAttachmentPersistenceTests {
    @Test func aQueuedMessageWithAFileIsStoredWithItsFile() async throws {
        let store = InMemoryChatStore()
        // Never connected: both messages wait in the outbox.
        let connection = GatewayConnection(
            configuration: GatewayConnectionConfiguration(
                url: try GatewayURL(parsing: "ws://127.0.0.1:9"), credential: .none, client: ChatHarness.client),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore()
        )
        let viewModel = ChatSession(client: ChatClient(connection: connection), store: store, gatewayID: "offline")
        let photo = Attachment(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], fileName: "a.png")
        let withFile = try await viewModel.send("look at this", attachments: [photo])
        let plain = await viewModel.send("just words")

        let waiting = viewModel.outbox.map(\.id)
        #expect(waiting == [withFile, plain], "both wait for delivery in memory")
        let stored = await store.outbox(gateway: "offline")
        #expect(stored.map(\.id) == [withFile, plain])
        #expect(stored.first?.attachments.map(\.summary) == [photo.summary])
        #expect(stored.last?.attachments == [])
    }
}

/// The names this device sent files under survive later history pages, which carry only types and sizes.
@Suite("Transcript: file names kept across launches")
struct FileNamesAcrossLaunchesTests {
    static func photoMessage(named name: String?) -> ChatMessage {
        ChatMessage(
            role: .user,
            content: [.text("look"), .image(ChatMediaPart(mimeType: "image/png", fileName: name, bytes: 40))],
            timestampMs: 1, entry: ChatTranscriptEntryInfo(id: "h1"))
    }

    @Test func aLaterLaunchsHistoryPageDoesNotTakeTheStoredNameAway() {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(
            .restored([StoredMessage(id: "row-1", historyKey: "h1", message: Self.photoMessage(named: "beach.png"))]))
        transcript.apply(.historyLoaded(ChatHistoryPage(sessionKey: "main", messages: [Self.photoMessage(named: nil)])))

        let stored = transcript.storableMessages
        #expect(stored.map(\.historyKey) == ["h1"])
        #expect(stored.first?.message.mediaFileNames == ["beach.png"])
        #expect(transcript.entries.first?.attachments.map(\.fileName) == ["beach.png"])
    }
}
