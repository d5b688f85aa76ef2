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
        let viewModel = ChatViewModel(client: ChatClient(connection: connection), store: store, gatewayID: "offline")
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
