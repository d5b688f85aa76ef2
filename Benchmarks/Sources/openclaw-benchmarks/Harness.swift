import Logging
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// Connections and view models on the test gateway over 127.0.0.1, wired as the apps wire them
/// (the live transport, a signed Ed25519 identity), with logging off.
enum Harness {
    static let client = ClientInfo(
        id: .cli, mode: .cli, version: "bench", platform: "linux", deviceFamily: "benchmark")
    static let quietLogger = Logger(label: "openclaw.bench", factory: { _ in SwiftLogNoOpLogHandler() })

    static func connection(
        to gateway: TestGateway,
        identityStore: any DeviceIdentityStore = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
        tokenStore: any DeviceTokenStore = InMemoryDeviceTokenStore()
    ) throws -> GatewayConnection {
        try connection(url: gateway.url, identityStore: identityStore, tokenStore: tokenStore)
    }

    static func connection(
        url: String,
        identityStore: any DeviceIdentityStore = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
        tokenStore: any DeviceTokenStore = InMemoryDeviceTokenStore()
    ) throws -> GatewayConnection {
        let configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: url),
            credential: .token("test-token"),
            client: client,
            challengeTimeout: .seconds(5),
            connectTimeout: .seconds(10),
            defaultRequestTimeout: .seconds(30)
        )
        return GatewayConnection(
            configuration: configuration,
            transport: LiveWebSocketTransport(),
            identityStore: identityStore,
            tokenStore: tokenStore,
            logger: quietLogger
        )
    }

    /// A started view model on a new connection, once it is connected and has loaded its session.
    @MainActor
    static func startedChat(on gateway: TestGateway) async throws -> ChatSession {
        try await startedChat(url: gateway.url)
    }

    /// A started view model on a gateway at `url` (one in another process, say).
    @MainActor
    static func startedChat(url: String) async throws -> ChatSession {
        let chat = ChatSession(client: ChatClient(connection: try connection(url: url)), sessionKey: "main")
        await chat.start()
        let ready = await waitUntil(timeout: .seconds(10)) {
            chat.connectionState.isConnected && chat.transcript.pendingHistoryRefresh == nil
                && !chat.messages.contains { $0.status == .streaming }
        }
        guard ready else { throw BenchmarkError.setup("the view model did not connect: \(chat.alerts)") }
        return chat
    }

    /// Runs `body` with a test gateway speaking `protocolNumber`, and stops the gateway afterwards.
    @MainActor
    static func withGateway<T>(
        protocolNumber: Int,
        agent: ScriptedAgent = ScriptedAgent(),
        v4Deltas: V4DeltaStyle = .withMessage,
        _ body: (TestGateway) async throws -> T
    ) async throws -> T {
        let gateway = try await TestGateway.start(
            // Every chunk its own delta: the benchmarks measure the client per delta, not upstream's throttle.
            TestGatewayConfiguration(
                protocolNumber: protocolNumber, v4Deltas: v4Deltas, agent: agent, deltaThrottleMs: 0),
            logger: quietLogger)
        do {
            let result = try await body(gateway)
            await gateway.stop()
            return result
        } catch {
            await gateway.stop()
            throw error
        }
    }
}

/// Polls `condition` every `interval` until it holds or `timeout` passes; the last answer decides.
@MainActor
func waitUntil(
    timeout: Duration, interval: Duration = .milliseconds(1), _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return await condition()
}

enum BenchmarkError: Error, CustomStringConvertible {
    case setup(String)
    case wrongResult(String)

    var description: String {
        switch self {
        case .setup(let text): "setup failed: \(text)"
        case .wrongResult(let text): "wrong result: \(text)"
        }
    }
}
