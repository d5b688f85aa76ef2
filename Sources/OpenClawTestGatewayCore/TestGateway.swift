import Logging
import OpenClawGateway
import OpenClawProtocol
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A protocol-faithful OpenClaw gateway, for tests, benchmarks and demos: on a real WebSocket
/// (`TestGateway.start`, in `OpenClawTestGateway`), or in this process without networking
/// (``inMemory(_:logger:)``, reached through ``inMemoryTransport()``).
///
/// ```swift
/// let gateway = try await TestGateway.start(.init(protocolNumber: 3))
/// defer { Task { await gateway.stop() } }
/// // connect a client to gateway.url …
/// ```
public final class TestGateway: Sendable {
    /// The listening port; 0 for a gateway in memory.
    public let port: Int
    public let configuration: TestGatewayConfiguration
    /// The fingerprint of the certificate made at start, when serving TLS.
    public let tlsFingerprint: TLSFingerprint?
    package let hub: GatewayHub
    package let connectionNumbers: ConnectionNumbers
    private let listener: any GatewayListener
    private let tickTask: Task<Void, Never>

    /// Where clients connect; a gateway in memory answers only its ``inMemoryTransport()``, whatever the
    /// URL says.
    public var url: String {
        guard listener.isNetworked else { return Self.inMemoryURL }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(configuration.tls == nil ? "ws" : "wss")://\(host):\(port)"
    }

    /// The URL of every gateway in memory (`.invalid` never resolves, so nothing reaches a network).
    public static let inMemoryURL = "ws://in-memory.invalid"

    package init(
        port: Int, configuration: TestGatewayConfiguration, tlsFingerprint: TLSFingerprint?, hub: GatewayHub,
        connectionNumbers: ConnectionNumbers, listener: any GatewayListener
    ) {
        self.port = port
        self.configuration = configuration
        self.tlsFingerprint = tlsFingerprint
        self.hub = hub
        self.connectionNumbers = connectionNumbers
        self.listener = listener
        let interval = max(1, configuration.tickIntervalMs)
        // Unstructured: ticks run for the gateway's lifetime; `stop()` and deinit cancel them.
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
        listener.cancel()
    }

    /// A gateway in this process with no socket and no networking library: the scripted agent, the
    /// same protocol rules, reached through ``inMemoryTransport()``.
    public static func inMemory(
        _ configuration: TestGatewayConfiguration = .init(),
        logger: Logger = Logger(label: "openclaw.test-gateway", factory: { _ in SwiftLogNoOpLogHandler() })
    ) -> TestGateway {
        TestGateway(
            port: 0, configuration: configuration, tlsFingerprint: nil,
            hub: GatewayHub(configuration: configuration, logger: logger), connectionNumbers: ConnectionNumbers(),
            listener: InMemoryListener())
    }

    /// A transport whose sockets are pipes into this gateway, in this process: for the app's demo and
    /// for tests that need the protocol but not the network. Works for a networked gateway too.
    public func inMemoryTransport() -> any WebSocketTransport {
        InMemoryGatewayTransport(
            hub: hub, connectionNumbers: connectionNumbers, maxMessageSize: configuration.maxPayload)
    }

    /// Drops every socket, stops runs and ticks, and closes the listener.
    public func stop() async {
        tickTask.cancel()
        await hub.cancelAllRuns()
        await hub.dropAll()
        await listener.stop()
    }

    /// Serves until the calling task is cancelled, then stops (for a foreground server).
    public func runUntilCancelled() async throws {
        let result = await listener.serve()
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

    /// The attachments of every `chat.send` that started a run, decoded, in arrival order (a resend
    /// answered from the duplicate memory adds none), with the ones the gateway dropped marked.
    public func receivedAttachments() async -> [ReceivedAttachment] { await hub.attachmentsReceived() }

    /// Agent runs ever started; a repeated idempotency key does not add one.
    public func runCount() async -> Int { await hub.runCount() }

    /// Requests of `method` received from handshaken sockets so far.
    public func requestCount(method: String) async -> Int { await hub.requestCount(method) }

    /// The params of the latest `method` request after the handshake (`{}` when it had none).
    public func lastRequestParams(method: String) async -> JSONValue? { await hub.lastRequestParams(method) }

    /// Sockets that completed the handshake and are still open.
    public func connectionCount() async -> Int { await hub.openConnectionCount() }

    /// When the latest request for `method` was taken up, on this process's continuous clock: the
    /// benchmarks time a client process from its start to its `chat.send` with it.
    public func lastRequestArrival(method: String) async -> ContinuousClock.Instant? {
        await hub.lastArrival(method)
    }

    /// Every `connect` params object received, as sent, in order.
    public func receivedConnectParams() async -> [JSONValue] { await hub.receivedConnectParams() }

    /// Ids of exec approvals waiting for a decision (sorted).
    public func pendingApprovals() async -> [String] { await hub.pendingApprovalIds() }

    /// Ids of the agent questions still waiting for an answer.
    public func pendingQuestions() async -> [String] { await hub.pendingQuestionIds() }

    /// Ids of pairing requests waiting for approval, oldest first.
    public func pendingPairingRequests() async -> [String] { await hub.pendingPairingRequestIds() }

    /// Approves a pending pairing; the device can connect afterwards.
    public func approvePairing(requestId: String) async { await hub.approvePairing(requestId: requestId) }

    /// Unpairs a device (record, device tokens, pending request): its next `connect` needs pairing
    /// again. Sockets it has open stay open, so a test can choose when it reconnects.
    public func removePairedDevice(deviceId: String) async { await hub.removePairedDevice(deviceId) }
    /// Revokes every issued device token; paired devices stay paired and get a new token on their
    /// next successful sign-in with the shared secret.
    public func revokeDeviceTokens() async { await hub.revokeDeviceTokens() }

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
    /// batches of about `batchBytes`, one flush each, straight to the socket instead of one awaited
    /// write per frame. Frames already queued are not waited for. For benchmarks that measure how fast a
    /// client takes frames off the socket, not how fast this gateway's writer produces them.
    public func sendRawBurst(_ texts: [String], batchBytes: Int = 65_536) async throws {
        for handle in await hub.openHandles() {
            try await handle.writeBurst(texts, batchBytes: batchBytes)
        }
    }

    public func setTicksPaused(_ paused: Bool) async { await hub.setTicksPaused(paused) }

    /// Ticks broadcast so far.
    public func ticksSent() async -> Int { await hub.ticksBroadcast }

    /// Replaces the shared secret; sockets admitted by it are closed with 4001 "gateway auth changed"
    /// (sockets admitted by a device token stay, as on a real gateway).
    public func rotateSharedAuth(to auth: TestGatewayAuth) async { await hub.rotateSharedAuth(to: auth) }
}

public enum TestGatewayError: Error, Sendable, CustomStringConvertible {
    case notStarted
    /// Another program listens on the port already.
    case portInUse(host: String, port: Int)

    public var description: String {
        switch self {
        case .notStarted: return "the test gateway stopped before it was listening"
        case .portInUse(let host, let port): return "port \(port) is in use on \(host)"
        }
    }
}
