import Logging
import OpenClawProtocol

/// One connection to an OpenClaw gateway: handshake, requests, events, liveness and automatic
/// reconnecting over a WebSocket.
///
/// An actor because everything about a socket (pending requests, sequence numbers, timers) must change
/// in one order. Every socket gets a generation number; work scheduled for an older socket (late frames,
/// timers, callbacks) checks it and does nothing, so a reconnect can never be disturbed by the past.
/// Reconnect timers carry an epoch of their own for the same reason.
public actor GatewayConnection {
    /// What this connection was made with: the address, the credential, the client, the reconnect policy.
    public nonisolated let configuration: GatewayConnectionConfiguration
    let transport: any WebSocketTransport
    let identityStore: any DeviceIdentityStore
    let tokenStore: any DeviceTokenStore
    let logger: Logger
    let traceFrame: (@Sendable (FrameTrace) -> Void)?
    let codec = FrameCodec()

    let eventHub = EventHub()
    let stateHub = Broadcaster<ConnectionState>()

    /// Where the connection stands now; ``stateChanges()`` follows it.
    public private(set) var state: ConnectionState = .disconnected(nil) {
        didSet { phase = Phase(state) }
    }
    /// What each received frame asks of ``state``, kept apart: reading `state` copies the session
    /// and its many fields, for every delta of a streamed reply.
    var phase = Phase.other
    var generation = 0
    var socket: (any WebSocketConnection)?
    var readerTask: Task<Void, Never>?
    var writer: OutboundWriter?
    var livenessTask: Task<Void, Never>?
    /// When the liveness watch sent its ping for the current silence; nil while frames arrive.
    var probeSentAt: ContinuousClock.Instant?
    /// Events published during a batch of frames, handed to the subscribers together (see `publish`);
    /// nil outside a batch.
    var heldEvents: [EventHub.Publication]?
    /// Events read after `hello-ok` but before the handshake finished (see `publishEarlyEvents`).
    var earlyEvents: [(EventFrame, Int)] = []
    var earlyEventWaiters: [CheckedContinuation<Void, Never>] = []
    /// The socket closed while handshaking (why, as the attempt's error).
    var closedDuringHandshake: GatewayError?
    var pending = PendingRequests()
    /// The one timer for request timeouts (see ``PendingRequests``) and when it fires.
    var requestTimer: Task<Void, Never>?
    var requestTimerDeadline: ContinuousClock.Instant?
    var challengeWaiter: CheckedContinuation<Result<ConnectChallenge, GatewayError>, Never>?
    var connectAttempt: Task<Result<GatewaySession, GatewayError>, Never>?
    var lastInbound = ContinuousClock.now
    var lastSeq: Int?
    var pendingShutdown: ShutdownEvent?
    var maxOutboundBytes = GatewayLimits.maxPreauthPayloadBytes
    /// Whether a lost connection is re-established automatically: set by a completed handshake when the
    /// configuration has a ``ReconnectPolicy``, cleared by ``disconnect()``. While set and the state is
    /// `failed`, reconnecting is paused until ``connect()`` or ``reconnectNow()``.
    var reconnectArmed = false
    /// The number of the latest automatic attempt since the last handshake (0: none yet).
    var reconnectAttempt = 0
    /// When the current connection completed its handshake; nil while there is none.
    var connectedAt: ContinuousClock.Instant?
    /// The wait for the next automatic attempt.
    var reconnectTimer: Task<Void, Never>?
    /// Bumped whenever a wait is scheduled or cancelled, so a timer that fires late does nothing.
    var reconnectEpoch = 0
    /// Set when the gateway refused the configured shared token and this device's saved token was
    /// accepted instead: later attempts sign in with the saved token directly, rather than failing
    /// first each time (failures count towards the gateway's rate limit).
    public private(set) var signedInWithSavedDeviceToken = false
    /// Whether the attempt under way sends the saved device token beside the shared one.
    var attemptUsesStoredDeviceToken = false

    /// Makes a connection; nothing is opened until ``connect()`` or ``keepConnected()``.
    ///
    /// - Parameters:
    ///   - configuration: the address, the credential, the client and the reconnect policy.
    ///   - transport: opens the WebSocket; tests pass a stand-in.
    ///   - identityStore: keeps this device's key pair; it must return the same key on every launch,
    ///     or the gateway sees a new device that needs approval again.
    ///   - tokenStore: keeps the device tokens the gateway issues.
    ///   - logger: receives connects, disconnects and reconnect waits, never a secret.
    ///   - traceFrame: receives every frame in and out, with secrets redacted (for a `--trace` option).
    public init(
        configuration: GatewayConnectionConfiguration,
        transport: any WebSocketTransport = WebSocketKitTransport(),
        identityStore: any DeviceIdentityStore,
        tokenStore: any DeviceTokenStore,
        logger: Logger = Logger(label: "openclaw.gateway"),
        traceFrame: (@Sendable (FrameTrace) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.transport = transport
        self.identityStore = identityStore
        self.tokenStore = tokenStore
        self.logger = logger
        self.traceFrame = traceFrame
    }

    // MARK: - Subscriptions

    /// Every event from now on, across reconnects, in arrival order. A subscriber that falls behind
    /// holds the socket's reading back (see `EventHub`); release subscriptions you stop reading.
    public nonisolated func events() -> GatewayEvents { eventHub.subscribe() }

    /// What is buffered between the socket and the event subscribers, and the most ever buffered:
    /// the bounds on inbound memory, for tests and diagnostics.
    public var inboundFlow: (transport: TransportFlowStats?, events: EventFlowStats) {
        (socket?.flow, eventHub.stats)
    }

    /// Every state change from now on.
    public nonisolated func stateChanges() -> AsyncStream<ConnectionState> { stateHub.subscribe() }

    /// The session of the current connection; nil unless ``state`` is `connected`.
    public var session: GatewaySession? { state.session }

    // MARK: - Connect and disconnect

    /// Opens the socket and completes the handshake. Concurrent callers share one attempt; when already
    /// connected the current session is returned.
    ///
    /// While waiting to reconnect this attempts at once; when reconnecting is paused (the last attempt
    /// failed with an error retrying cannot fix) this is the one attempt the person asked for. A failed
    /// attempt is thrown; once a handshake has succeeded, a retryable failure also schedules the next
    /// automatic attempt.
    @discardableResult
    public func connect() async throws(GatewayError) -> GatewaySession {
        if let session = state.session { return session }
        // Join only an attempt that is still under way: one that already failed may still be closing
        // its socket, and a caller (the reconnect timer) must then get a new attempt, not its result.
        if let attempt = connectAttempt, state == .connecting { return try await attempt.value.get() }
        cancelReconnectTimer()
        setState(.connecting)
        let attempt = Task { await self.connectRetryingWithDeviceToken() }
        connectAttempt = attempt
        let result = await attempt.value
        if connectAttempt == attempt { connectAttempt = nil }
        return try result.get()
    }

    /// Closes the socket (code 1000) and stops reconnecting: nothing reconnects after an explicit close.
    /// Pending requests fail with ``GatewayError/connectionLost(_:)``.
    public func disconnect() async {
        stopReconnecting()
        await teardown(reason: .closedByClient, closeCode: GatewayCloseCode.normal)
    }

    /// One connect attempt, and, when the gateway refuses the shared token but says this device may use
    /// its own (`canRetryWithDeviceToken`), one more with the saved device token (see
    /// ``mayRetryWithDeviceToken(after:)``). When that fails too, the first refusal is what the person
    /// sees: the configured token is what needs fixing.
    func connectRetryingWithDeviceToken() async -> Result<GatewaySession, GatewayError> {
        let first = await performConnect(useStoredDeviceToken: signedInWithSavedDeviceToken)
        // Still `connecting` unless a disconnect() came meanwhile: then there is nothing to retry.
        guard case .failure(.authFailed(let failure)) = first, !signedInWithSavedDeviceToken,
            mayRetryWithDeviceToken(after: failure), state == .connecting
        else {
            if case .failure(.authFailed) = first { signedInWithSavedDeviceToken = false }
            return first
        }
        logger.notice(
            "the gateway refused the configured token; trying this device's saved token once",
            metadata: ["url": "\(configuration.url)"])
        let retry = await performConnect(useStoredDeviceToken: true)
        switch retry {
        case .success:
            signedInWithSavedDeviceToken = true
            return retry
        case .failure(let error):
            // Another refusal (the saved token is stale too): the refused shared token is the news.
            // Anything else (the network, a restart) is what happens now, and is reported as it is.
            guard case .authFailed = error else { return retry }
            if state == .failed(error) { setState(.failed(.authFailed(failure))) }
            return first
        }
    }

    /// One attempt: socket, challenge, `connect`, `hello-ok`. With optional scopes configured, a
    /// refusal that asks for a scope upgrade is followed at once by an attempt without them
    /// (`scopeRefusal` says what was withheld and why).
    func performConnect(
        useStoredDeviceToken: Bool = false, scopeRefusal: ScopeRefusal? = nil
    ) async -> Result<GatewaySession, GatewayError> {
        attemptUsesStoredDeviceToken = useStoredDeviceToken
        generation += 1
        let socketGeneration = generation
        setState(.connecting)
        lastSeq = nil
        earlyEvents = []
        closedDuringHandshake = nil
        pendingShutdown = nil
        maxOutboundBytes = GatewayLimits.maxPreauthPayloadBytes

        let identity: DeviceIdentity
        do {
            identity = try identityStore.loadOrCreate()
        } catch {
            return fail(.localStorage(error.description), generation: socketGeneration)
        }
        logger.debug("connecting", metadata: ["url": "\(configuration.url)", "deviceId": "\(identity.deviceId)"])

        switch await openSocket() {
        case .failure(let error): return fail(error, generation: socketGeneration)
        case .success(let opened):
            guard socketGeneration == generation else {
                Task { await opened.close(code: GatewayCloseCode.normal) }
                return .failure(.cancelled)
            }
            socket = opened
            lastInbound = .now
            probeSentAt = nil
            writer = OutboundWriter(socket: opened) { [weak self] id in
                await self?.resolveRequest(id: id, with: .failure(.connectionLost(.connectionLost)))
            }
            let hub = eventHub
            readerTask = Task { [weak self] in
                // What one read of the socket delivered is handled in one turn of the actor: a hop per
                // frame cost more than decoding a streamed delta.
                while let batch = await opened.events.queue.next(upTo: Self.framesPerTurn) {
                    guard let outcome = await self?.receive(batch, generation: socketGeneration) else { continue }
                    // A subscriber that is behind stops this loop, and so the reading of the socket.
                    await hub.waitForRoom(headroom: outcome.requestPending)
                    if outcome.handshakeBacklog { await self?.waitForHandshake(generation: socketGeneration) }
                }
            }
        }

        let challenge: ConnectChallenge
        switch await waitForChallenge(generation: socketGeneration) {
        case .failure(let error): return await abortHandshake(error, generation: socketGeneration)
        case .success(let received): challenge = received
        }
        guard socketGeneration == generation else { return .failure(.cancelled) }

        let scopes = scopeRefusal == nil ? configuration.scopes + configuration.optionalScopes : configuration.scopes
        let params: ConnectParams
        do {
            params = try connectParams(
                identity: identity, challenge: challenge, scopes: scopes, useStoredDeviceToken: useStoredDeviceToken)
        } catch {
            return await abortHandshake(.localStorage(error.description), generation: socketGeneration)
        }
        let response = await send(
            method: "connect",
            params: params.json,
            timeout: configuration.connectTimeout,
            generation: socketGeneration
        )
        switch response {
        case .failure(let error):
            return await abortHandshake(error, generation: socketGeneration)
        case .success(let frame) where !frame.ok:
            let error = GatewayErrorClassifier.connectFailure(frame.error ?? ErrorShape(code: "UNKNOWN", message: ""))
            if case .authFailed(let failure) = error, failure.code == .authDeviceTokenMismatch {
                forgetDeviceToken(deviceId: identity.deviceId)
            }
            if scopeRefusal == nil, !configuration.optionalScopes.isEmpty, let refusal = error.scopeUpgrade {
                await dropHandshakeSocket(generation: socketGeneration)
                guard socketGeneration + 1 == generation else { return .failure(.cancelled) }
                return await performConnect(
                    useStoredDeviceToken: useStoredDeviceToken,
                    scopeRefusal: ScopeRefusal(scopes: configuration.optionalScopes, pairing: refusal.pairing))
            }
            return await abortHandshake(error, generation: socketGeneration)
        case .success(let frame):
            return await completeHandshake(
                frame, identity: identity, scopes: scopes, scopeRefusal: scopeRefusal, generation: socketGeneration)
        }
    }

    func completeHandshake(
        _ frame: ResponseFrame,
        identity: DeviceIdentity,
        scopes: [String]? = nil,
        scopeRefusal: ScopeRefusal? = nil,
        generation socketGeneration: Int
    ) async -> Result<GatewaySession, GatewayError> {
        // A disconnect() (or a close) while the response was on its way: this socket is gone.
        guard socketGeneration == generation, socket != nil else { return .failure(.cancelled) }
        if let closed = closedDuringHandshake { return await abortHandshake(closed, generation: socketGeneration) }
        guard let hello = HelloOk(json: frame.payload).map(PolicyBounds.clamped) else {
            return await abortHandshake(
                .invalidResponse(method: "connect", reason: "no hello-ok payload"),
                generation: socketGeneration
            )
        }
        guard let version = hello.protocolVersion else {
            return await abortHandshake(.unsupportedProtocol(hello.protocolNumber), generation: socketGeneration)
        }
        if let auth = hello.auth, let token = auth.deviceToken {
            rememberDeviceToken(
                DeviceTokenRecord(token: token, role: auth.role, scopes: auth.scopes, issuedAtMs: auth.issuedAtMs),
                deviceId: identity.deviceId
            )
        }
        if let handoff = hello.auth?.deviceTokens, !handoff.isEmpty {
            rememberHandoffTokens(handoff, deviceId: identity.deviceId)
        }
        maxOutboundBytes = hello.policy.maxPayload
        let session = GatewaySession(
            hello: hello,
            protocolVersion: version,
            deviceId: identity.deviceId,
            scopes: scopes ?? configuration.scopes,
            generation: socketGeneration,
            scopeRefusal: scopeRefusal
        )
        lastInbound = .now
        startLivenessWatch(tickIntervalMs: hello.policy.tickIntervalMs, generation: socketGeneration)
        // From now on a lost connection heals itself; the backoff starts again from the first step once
        // this connection has proven stable (see `ReconnectPolicy.stableAfter`).
        reconnectArmed = configuration.reconnect != nil
        connectedAt = .now
        setState(.connected(session))
        publish(.connected(session), flow: .barrierAll)
        publishEarlyEvents()
        logger.info(
            "connected",
            metadata: [
                "url": "\(configuration.url)", "protocol": "\(version.rawValue)",
                "server": "\(hello.server.version)",
            ]
        )
        return .success(session)
    }

    // MARK: - Helpers

    func setState(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        stateHub.publish(newState)
    }

    func trace(_ direction: FrameTrace.Direction, _ text: String) {
        guard let traceFrame else { return }
        traceFrame(FrameTrace(direction: direction, text: FrameRedactor.redactedText(text)))
    }
}
