import Logging
import OpenClawProtocol

/// One connection to an OpenClaw gateway: handshake, requests, events, liveness and automatic
/// reconnecting over a WebSocket.
///
/// An actor because everything about a socket (pending requests, sequence numbers, timers) must change
/// in one order. The connection's life (which socket, which stage of the handshake, which credential,
/// the reconnect wait) is a value, `ConnectionMachine`: every event (a frame, a socket's end, a timer,
/// a call) is handed to it, and the actor performs the actions it returns. Each state of the machine
/// holds the socket and the timer it waits for, so work still under way for an older socket (late
/// frames, timers, callbacks) is matched by no state and does nothing.
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
    /// The connection's life: the state ``state`` shows, and what each event leads to.
    var machine: ConnectionMachine
    /// The socket of the attempt or connection under way, once open.
    var live: LiveSocket?
    /// The machine's timers and the requests' timeouts: one clock, run by `owner`.
    let clock = ConnectionClock()
    /// The task that runs the connection's long-lived work (see `ConnectionOwner`); nil at rest.
    var owner: ConnectionOwner?
    /// Owners let go by `disconnect()` and not yet ended.
    var stoppingOwners: [ConnectionOwner] = []
    /// Callers of ``connect()`` waiting for the attempt under way.
    var attemptWaiters: [CheckedContinuation<Result<GatewaySession, GatewayError>, Never>] = []
    /// Events published during a batch of frames, handed to the subscribers together (see `publish`);
    /// nil outside a batch.
    var heldEvents: [EventHub.Publication]?
    /// Shared with the callers and the socket's event loop: requests go out and their answers come
    /// back without a turn of the actor (see `PendingRequests`).
    let pending: PendingRequests

    /// Set when the gateway refused the configured shared token and this device's saved token was
    /// accepted instead: later attempts sign in with the saved token directly, rather than failing
    /// first each time (failures count towards the gateway's rate limit).
    public var signedInWithSavedDeviceToken: Bool { machine.prefersSavedDeviceToken }

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
        transport: any WebSocketTransport = LiveWebSocketTransport(),
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
        self.machine = ConnectionMachine(settings: ConnectionMachine.Settings(configuration))
        self.pending = PendingRequests(clock: clock)
    }

    deinit {
        // Nothing of a connection no one holds runs on (its owner's children hold it weakly).
        owner?.cancel()
    }

    // MARK: - Subscriptions

    /// Every event from now on, across reconnects, in arrival order. A subscriber that falls behind
    /// holds the socket's reading back (see `EventHub`); release subscriptions you stop reading.
    public nonisolated func events() -> GatewayEvents { eventHub.subscribe() }

    /// What is buffered between the socket and the event subscribers, and the most ever buffered:
    /// the bounds on inbound memory, for tests and diagnostics.
    public var inboundFlow: (transport: TransportFlowStats?, events: EventFlowStats) {
        (live?.socket.flow, eventHub.stats)
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
        try await attempt(keepConnected: false).get()
    }

    /// Closes the socket (code 1000) and stops reconnecting: nothing reconnects after an explicit close.
    /// Pending requests fail with ``GatewayError/connectionLost(_:)``. When this returns, nothing of the
    /// connection runs on: no reader, no timer, no socket being opened.
    public func disconnect() async {
        await perform(machine.disconnectRequested()).run()
        await stopOwnerAtRest()
    }

    /// Starts or joins an attempt and waits for its outcome (at once when connected).
    func attempt(keepConnected: Bool) async -> Result<GatewaySession, GatewayError> {
        if let session = state.session { return .success(session) }
        let actions = machine.connectRequested(keepConnected: keepConnected)
        return await withCheckedContinuation { continuation in
            // Waiting before anything is performed: an attempt may end at once (an identity that
            // cannot be loaded), and its end is announced to the waiters.
            attemptWaiters.append(continuation)
            start(perform(actions))
        }
    }

    // MARK: - Helpers

    func setState(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        // Before anyone hears of it: a caller told `connected` may send a request at once.
        if let session = newState.session, let live, live.id.rawValue == session.generation {
            pending.open(
                RequestRoute(
                    generation: session.generation, writer: live.writer,
                    maxOutboundBytes: session.hello.policy.maxPayload))
        } else {
            pending.closeRoute()
        }
        stateHub.publish(newState)
    }

    nonisolated func trace(_ direction: FrameTrace.Direction, _ text: String) {
        guard let traceFrame else { return }
        traceFrame(FrameTrace(direction: direction, text: FrameRedactor.redactedText(text)))
    }
}
