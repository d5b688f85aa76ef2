import OpenClawAppDemo
import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// Builds app models wired to a real test gateway over 127.0.0.1, with in-memory stores, as the iOS
/// app wires them with the Keychain and SQLite.
@MainActor
enum AppHarness {
    static let client = AppClientIdentity.ios(version: "test", displayName: "Test iPhone")

    static func dependencies(
        saved: SavedGateway? = nil,
        chatStore: any ChatStore = InMemoryChatStore(),
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) },
        recordsFrames: Bool = false,
        frameCapacity: Int = 500,
        reconnect: ReconnectPolicy? = .standard
    ) -> AppDependencies {
        var dependencies = AppDependencies(
            credentials: InMemoryCredentialStore(saved),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore(),
            chatStore: chatStore,
            client: client,
            sleep: sleep,
            recordsFrames: recordsFrames,
            frameCapacity: frameCapacity,
            locale: "en-US",
            reconnect: reconnect
        )
        dependencies.demoGateway = { try DemoGateway.inMemory() }
        return dependencies
    }

    static func saved(_ gateway: TestGateway, token: String = "test-token") throws -> SavedGateway {
        SavedGateway(url: try GatewayURL(parsing: gateway.url), credential: .token(token))
    }

    /// Waits until the app shows a connected chat whose first history page is in.
    static func connectedChat(_ app: AppModel) async -> ChatContext? {
        let ready = await waitUntil {
            guard app.screen == .chat, let chat = app.context?.chat else { return false }
            return chat.connectionState.isConnected && chat.transcript.pendingHistoryRefresh == nil
        }
        return ready ? app.context : nil
    }
}

extension TestGateway {
    /// `client` of every `connect` received, in order.
    func connectClients() async -> [JSONValue] {
        await receivedConnectParams().map { $0["client"] ?? .null }
    }
}
