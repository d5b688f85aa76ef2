import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
@_exported import OpenClawTestSupport
import Synchronization

/// Builds clients for a running test gateway with in-memory identity and token stores.
enum Harness {
    static let client = ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux", deviceFamily: "test")

    static func connection(
        to gateway: TestGateway,
        credential: GatewayCredential = .token("test-token"),
        identityStore: any DeviceIdentityStore = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
        tokenStore: any DeviceTokenStore = InMemoryDeviceTokenStore(),
        transport: any WebSocketTransport = LiveWebSocketTransport(),
        trace: TraceRecorder? = nil,
        reconnect: ReconnectPolicy? = nil,
        configure: (inout GatewayConnectionConfiguration) -> Void = { _ in }
    ) throws -> GatewayConnection {
        try connection(
            url: gateway.url, credential: credential, identityStore: identityStore, tokenStore: tokenStore,
            transport: transport, trace: trace, reconnect: reconnect, configure: configure)
    }

    static func connection(
        url: String,
        credential: GatewayCredential = .token("test-token"),
        identityStore: any DeviceIdentityStore = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
        tokenStore: any DeviceTokenStore = InMemoryDeviceTokenStore(),
        transport: any WebSocketTransport = LiveWebSocketTransport(),
        trace: TraceRecorder? = nil,
        reconnect: ReconnectPolicy? = nil,
        configure: (inout GatewayConnectionConfiguration) -> Void = { _ in }
    ) throws -> GatewayConnection {
        // Reconnecting is off unless a test asks for it: most tests look at how one socket ends.
        var configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: url),
            credential: credential,
            client: client,
            challengeTimeout: .seconds(6),
            connectTimeout: .seconds(10),
            defaultRequestTimeout: .seconds(5),
            reconnect: reconnect
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
    var events: TransportEvents { base.events }
    var flow: TransportFlowStats { base.flow }
    var lastReceived: ContinuousClock.Instant { base.lastReceived }
    func sendPing() async { await base.sendPing() }
    func send(text: String) async throws(TransportError) { try await base.send(text: rewrite(text)) }
    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) {
        base.write(text: rewrite(text), completion: completion)
    }
    func close(code: Int) async { await base.close(code: code) }
}

/// Records every state a connection publishes, with when it was received, and lets a test wait for a
/// state without polling.
final class StateRecorder: Sendable {
    struct Entry: Sendable {
        let state: ConnectionState
        let at: ContinuousClock.Instant
    }

    private struct Waiter {
        let predicate: @Sendable (ConnectionState) -> Bool
        let continuation: CheckedContinuation<ConnectionState?, Never>
    }

    private struct Storage {
        var entries: [Entry] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let storage = Mutex(Storage())
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Subscribes at once, so nothing published after this returns is missed.
    init(_ connection: GatewayConnection) {
        let stream = connection.stateChanges()
        task.withLock {
            $0 = Task { [weak self] in
                for await state in stream { self?.append(state) }
            }
        }
    }

    deinit { task.withLock { $0?.cancel() } }

    var entries: [Entry] { storage.withLock { $0.entries } }
    var states: [ConnectionState] { entries.map(\.state) }
    var statuses: [ReconnectStatus] { states.compactMap(\.reconnectStatus) }

    /// The first matching state at or after position `index` of the recording (states already recorded
    /// count), waiting for it if need be; nil after `timeout`.
    func first(
        from index: Int = 0,
        timeout: Duration = .seconds(10),
        _ predicate: @escaping @Sendable (ConnectionState) -> Bool
    ) async -> ConnectionState? {
        let id = storage.withLock { storage -> Int in
            storage.nextWaiter += 1
            return storage.nextWaiter
        }
        return await withCheckedContinuation { continuation in
            let matched = storage.withLock { storage -> ConnectionState? in
                let recorded = storage.entries.dropFirst(index).map(\.state)
                if let match = recorded.first(where: predicate) { return match }
                storage.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                return nil
            }
            if let matched {
                continuation.resume(returning: matched)
                return
            }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(id)
            }
        }
    }

    private func append(_ state: ConnectionState) {
        let ready = storage.withLock { storage -> [Waiter] in
            storage.entries.append(Entry(state: state, at: .now))
            let matching = storage.waiters.filter { $0.value.predicate(state) }
            for id in matching.keys { storage.waiters[id] = nil }
            return Array(matching.values)
        }
        for waiter in ready { waiter.continuation.resume(returning: state) }
    }

    private func expire(_ id: Int) {
        let waiter = storage.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: nil)
    }
}
