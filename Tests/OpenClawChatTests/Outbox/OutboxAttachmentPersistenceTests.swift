import OpenClawGateway
import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The store keeps an outbox message's text, not its files: a message with attachments is never
/// written there, so a later process cannot send it without them.
@MainActor
@Suite("Outbox: messages with attachments stay in memory")
struct OutboxAttachmentPersistenceTests {
    @Test func aQueuedMessageWithAFileIsNotStoredButOneWithoutIs() async throws {
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
        let stored = await store.outbox(gateway: "offline").map(\.id)
        #expect(stored == [plain])
    }
}
