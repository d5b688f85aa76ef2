import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Synchronization

/// Builds clients for a running test gateway with in-memory identity and token stores.
enum Harness {
    static let client = ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux", deviceFamily: "test")

    static func connection(
        to gateway: TestGateway,
        credential: GatewayCredential = .token("test-token"),
        identityStore: any DeviceIdentityStore = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
        tokenStore: any DeviceTokenStore = InMemoryDeviceTokenStore(),
        transport: any WebSocketTransport = WebSocketKitTransport(),
        trace: TraceRecorder? = nil,
        configure: (inout GatewayConnectionConfiguration) -> Void = { _ in }
    ) throws -> GatewayConnection {
        var configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: gateway.url),
            credential: credential,
            client: client,
            challengeTimeout: .seconds(3),
            connectTimeout: .seconds(5),
            defaultRequestTimeout: .seconds(5)
        )
        configure(&configuration)
        return GatewayConnection(
            configuration: configuration,
            transport: transport,
            identityStore: identityStore,
            tokenStore: tokenStore,
            traceFrame: trace?.sink
        )
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}

/// Records everything a connection publishes.
final class EventRecorder: Sendable {
    private let task: Task<Void, Never>
    private let box = RecorderBox()

    init(_ connection: GatewayConnection) {
        let stream = connection.events()
        let box = self.box
        task = Task {
            for await event in stream { box.append(event) }
        }
    }

    var events: [GatewayEvent] { box.all }

    func contains(where predicate: (GatewayEvent) -> Bool) -> Bool { box.all.contains(where: predicate) }

    deinit { task.cancel() }
}

private final class RecorderBox: Sendable {
    private let events = Mutex<[GatewayEvent]>([])
    func append(_ event: GatewayEvent) { events.withLock { $0.append(event) } }
    var all: [GatewayEvent] { events.withLock { $0 } }
}

/// Collects redacted trace lines.
final class TraceRecorder: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var sink: @Sendable (FrameTrace) -> Void {
        { [self] trace in lines.withLock { $0.append(trace.text) } }
    }
}

/// A transport that lets a test rewrite outbound frames (tamper with a signature, add a field) on a
/// real socket.
struct RewritingTransport: WebSocketTransport {
    let base: any WebSocketTransport
    let rewrite: @Sendable (String) -> String

    func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        RewritingConnection(base: try await base.connect(to: url, maxFrameSize: maxFrameSize), rewrite: rewrite)
    }
}

private struct RewritingConnection: WebSocketConnection {
    let base: any WebSocketConnection
    let rewrite: @Sendable (String) -> String
    var events: AsyncStream<TransportEvent> { base.events }
    func send(text: String) async throws(TransportError) { try await base.send(text: rewrite(text)) }
    func close(code: Int) async { await base.close(code: code) }
}
