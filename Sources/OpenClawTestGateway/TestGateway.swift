import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import OpenClawGateway
import OpenClawProtocol
import Synchronization

/// A protocol-faithful OpenClaw gateway on a real WebSocket, for tests, benchmarks and demos.
///
/// ```swift
/// let gateway = try await TestGateway.start(.init(protocolNumber: 3))
/// defer { Task { await gateway.stop() } }
/// // connect a client to gateway.url …
/// ```
public final class TestGateway: Sendable {
    public let port: Int
    public let configuration: TestGatewayConfiguration
    /// The fingerprint of the certificate made at start, when serving TLS.
    public let tlsFingerprint: TLSFingerprint?
    let hub: GatewayHub
    private let serverTask: Task<Void, any Error>
    private let tickTask: Task<Void, Never>

    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(configuration.tls == nil ? "ws" : "wss")://\(host):\(port)"
    }

    private init(
        port: Int, configuration: TestGatewayConfiguration, tlsFingerprint: TLSFingerprint?, hub: GatewayHub,
        serverTask: Task<Void, any Error>
    ) {
        self.port = port
        self.configuration = configuration
        self.tlsFingerprint = tlsFingerprint
        self.hub = hub
        self.serverTask = serverTask
        let interval = max(1, configuration.tickIntervalMs)
        self.tickTask = Task { [hub] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(interval))
                guard !Task.isCancelled else { return }
                await hub.tick()
            }
        }
    }

    deinit {
        tickTask.cancel()
        serverTask.cancel()
    }

    /// Binds, starts serving and returns once the port is known.
    public static func start(
        _ configuration: TestGatewayConfiguration = .init(),
        logger: Logger = Logger(label: "openclaw.test-gateway", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> TestGateway {
        let hub = GatewayHub(configuration: configuration, logger: logger)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let connectionNumbers = Atomic<Int>(0)
        let maxMessageSize = configuration.maxPayload
        let router = Router()
        let webSocketServer = HTTPServerBuilder.http1WebSocketUpgrade(
            configuration: .init(ws: .init(maxFrameSize: maxMessageSize, autoPing: .disabled))
        ) { request, channel, _ in
            let origin = request.headerFields.first { $0.name.canonicalName == "origin" }?.value
            let number = connectionNumbers.add(1, ordering: .relaxed).newValue
            let handle = ConnectionHandle(id: number, origin: origin, channel: channel)
            return .upgrade([:]) { inbound, outbound, _ in
                await SocketSession.serve(
                    inbound: inbound, outbound: outbound, handle: handle, hub: hub, maxMessageSize: maxMessageSize
                )
            }
        }
        let certificate = try configuration.tls.map(TestGatewayCertificate.init)
        let server =
            try certificate.map { try HTTPServerBuilder.tls(webSocketServer, tlsConfiguration: $0.serverConfiguration) }
            ?? webSocketServer
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let serverTask = Task {
            defer { portContinuation.finish() }
            try await app.run()
        }
        for await port in ports {
            return TestGateway(
                port: port, configuration: configuration, tlsFingerprint: certificate?.fingerprint, hub: hub,
                serverTask: serverTask)
        }
        try await serverTask.value
        throw TestGatewayError.notStarted
    }

    /// Drops every socket, stops runs and ticks, and closes the listener.
    public func stop() async {
        tickTask.cancel()
        await hub.cancelAllRuns()
        await hub.dropAll()
        serverTask.cancel()
        _ = await serverTask.result
    }

    /// Serves until the calling task is cancelled, then stops (for a foreground server).
    public func runUntilCancelled() async throws {
        let result = await withTaskCancellationHandler {
            await serverTask.result
        } onCancel: { [serverTask] in
            serverTask.cancel()
        }
        await stop()
        try Task.checkCancellation()
        try result.get()
    }

    // MARK: Inspection

    /// The transcript as `chat.history` returns it (`main` and `agent:main:main` are one session):
    /// all messages by default and no truncation unless `maxChars` is given.
    public func history(sessionKey: String, limit: Int? = nil, maxChars: Int? = nil) async -> [JSONValue] {
        await hub.history(sessionKey, limit: limit, maxChars: maxChars)
    }

    /// Texts of the user messages `chat.send` stored, in order.
    public func sentUserMessages(sessionKey: String) async -> [String] {
        await hub.sentUserMessages(sessionKey)
    }

    /// Agent runs ever started; a repeated idempotency key does not add one.
    public func runCount() async -> Int { await hub.runCount() }

    /// Requests of `method` received from handshaken sockets so far.
    public func requestCount(method: String) async -> Int { await hub.requestCount(method) }

    /// Sockets that completed the handshake and are still open.
    public func connectionCount() async -> Int { await hub.openConnectionCount() }

    /// Every `connect` params object received, as sent, in order.
    public func receivedConnectParams() async -> [JSONValue] { await hub.receivedConnectParams() }

    /// Ids of pairing requests waiting for approval, oldest first.
    public func pendingPairingRequests() async -> [String] { await hub.pendingPairingRequestIds() }

    /// Approves a pending pairing; the device can connect afterwards.
    public func approvePairing(requestId: String) async { await hub.approvePairing(requestId: requestId) }

    /// Unpairs a device (record, device tokens, pending request): its next `connect` needs pairing
    /// again. Sockets it has open stay open, so a test can choose when it reconnects.
    public func removePairedDevice(deviceId: String) async { await hub.removePairedDevice(deviceId) }

    // MARK: Setup codes

    /// Issues a single-use bootstrap token (as `openclaw qr` does): it pairs the device that uses it
    /// for `roles` (operator scopes bounded to `scopes`) and hands over a device token for each role.
    public func issueBootstrapToken(
        roles: [String] = ["node", "operator"],
        scopes: [String] = ["operator.approvals", "operator.read", "operator.talk.secrets", "operator.write"],
        validForMs: Int = 600_000
    ) async -> String {
        await hub.issueBootstrapToken(
            BootstrapGrant(roles: roles, scopes: scopes, expiresAtMs: GatewayHub.nowMs() + validForMs))
    }

    /// A setup code for this gateway: its URL (after `extraURLs`, when given, tried first), a fresh
    /// bootstrap token, and the certificate fingerprint when serving TLS.
    public func setupCode(
        host: String = "localhost", extraURLs: [String] = [], validForMs: Int = 600_000
    )
        async throws -> SetupCode
    {
        let own = try GatewayURL(parsing: "\(configuration.tls == nil ? "ws" : "wss")://\(host):\(port)")
        let urls = try extraURLs.map { try GatewayURL(parsing: $0) } + [own]
        let token = await issueBootstrapToken(validForMs: validForMs)
        return SetupCode(
            urls: urls, bootstrapToken: token, tlsFingerprint: tlsFingerprint,
            expiresAt: Date(timeIntervalSince1970: TimeInterval(GatewayHub.nowMs() + validForMs) / 1000))
    }

    // MARK: Faults and server-initiated events

    public func setFaults(_ faults: FaultPlan) async { await hub.setFaults(faults) }

    /// Closes every TCP connection at once, with no close frame.
    public func dropAllConnections() async { await hub.dropAll() }

    /// Broadcasts `shutdown {reason, restartExpectedMs?}`, then closes every socket with 1012. The
    /// gateway keeps listening, as a restarted one would.
    public func shutdown(restartExpectedMs: Int?) async { await hub.shutdown(restartExpectedMs: restartExpectedMs) }

    /// Sends `text` as is, as a text frame, to every handshaken socket.
    public func sendRaw(_ text: String) async { await hub.sendRaw([text]) }

    /// Sends `texts` as is, in order, one text frame each, to every handshaken socket: queued in one
    /// step, so a benchmark measures the socket and the client rather than the caller's loop.
    public func sendRaw(contentsOf texts: [String]) async { await hub.sendRaw(texts) }

    /// Writes `texts` as text frames to every handshaken socket as fast as the sockets take them: in
    /// batches of about `batchBytes`, one flush each, straight to the channel instead of one awaited
    /// write per frame. Frames already queued are not waited for. For benchmarks that measure how fast a
    /// client takes frames off the socket, not how fast this gateway's writer produces them.
    public func sendRawBurst(_ texts: [String], batchBytes: Int = 65_536) async throws {
        for handle in await hub.openHandles() {
            try await handle.writeBurst(texts, batchBytes: batchBytes)
        }
    }

    public func setTicksPaused(_ paused: Bool) async { await hub.setTicksPaused(paused) }

    /// Replaces the shared secret; sockets admitted by it are closed with 4001 "gateway auth changed"
    /// (sockets admitted by a device token stay, as on a real gateway).
    public func rotateSharedAuth(to auth: TestGatewayAuth) async { await hub.rotateSharedAuth(to: auth) }
}

public enum TestGatewayError: Error, Sendable, CustomStringConvertible {
    case notStarted

    public var description: String {
        switch self {
        case .notStarted: return "the test gateway stopped before it was listening"
        }
    }
}
