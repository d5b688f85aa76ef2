import OpenClawProtocol

/// The connection's life as a value: a state with each stage's own data, and one `mutating func` per
/// event returning what to do next, in the manner of swift-nio's state machines.
///
/// Nothing here performs I/O: what the socket and the credential store say comes in with the events,
/// the time and the jitter through ``Settings`` (fixed in tests), and `GatewayConnection` performs the
/// actions.
/// Each state holds the socket and the timer it waits for, so an event about another one (a frame
/// read late from a socket let go, a timer cancelled as it fired) matches no state and does nothing.
/// The decisions the handshake makes on a refusal (retry without the optional scopes, retry once with
/// the saved device token) and the reconnect schedule (``ReconnectPolicy``) are made here, from values.
struct ConnectionMachine: Sendable {
    /// What the machine needs to know of the configuration.
    struct Settings: Sendable {
        var reconnect: ReconnectPolicy?
        var scopes: [String]
        var optionalScopes: [String]
        var challengeTimeout: Duration
        var connectTimeout: Duration
        var tickTolerance: Int
        /// A value in `0..<1` for the reconnect jitter.
        var randomUnit: @Sendable () -> Double
        /// The time, for reconnect waits and the silence watch.
        var now: @Sendable () -> ContinuousClock.Instant

        init(
            reconnect: ReconnectPolicy?, scopes: [String], optionalScopes: [String] = [],
            challengeTimeout: Duration, connectTimeout: Duration, tickTolerance: Int,
            randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
            now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
        ) {
            self.reconnect = reconnect
            self.scopes = scopes
            self.optionalScopes = optionalScopes
            self.challengeTimeout = challengeTimeout
            self.connectTimeout = connectTimeout
            self.tickTolerance = tickTolerance
            self.randomUnit = randomUnit
            self.now = now
        }

        init(_ configuration: GatewayConnectionConfiguration) {
            self.init(
                reconnect: configuration.reconnect, scopes: configuration.scopes,
                optionalScopes: configuration.optionalScopes, challengeTimeout: configuration.challengeTimeout,
                connectTimeout: configuration.connectTimeout, tickTolerance: configuration.tickTolerance)
        }
    }

    let settings: Settings
    /// Changed only by the events (`mutating func`s) of the machine's extensions.
    var state: State = .idle(nil)
    /// Set when the gateway refused the configured shared token and this device's saved token was
    /// accepted instead: later attempts sign in with the saved token directly, rather than failing
    /// first each time (failures count towards the gateway's rate limit).
    var prefersSavedDeviceToken = false
    private var lastSocket = 0
    private var lastTimer = 0

    init(settings: Settings) {
        self.settings = settings
    }

    // MARK: - Questions the connection asks

    /// The socket of the attempt or connection; nil when there is none.
    var currentSocket: SocketID? {
        switch state {
        case .connecting(let attempt), .awaitingChallenge(let attempt, _), .authenticating(let attempt, _, _):
            attempt.socket
        case .ready(let ready): ready.socket
        case .idle, .waitingToReconnect, .failed: nil
        }
    }

    /// Whether nothing is under way or scheduled: no socket, no attempt, no reconnect wait, no timer.
    var isAtRest: Bool {
        switch state {
        case .idle, .failed: return true
        case .connecting, .awaitingChallenge, .authenticating, .ready, .waitingToReconnect: return false
        }
    }

    /// Whether `socket` is the one being opened: when not, it arrived too late and is closed.
    func expectsSocket(_ socket: SocketID) -> Bool {
        if case .connecting(let attempt) = state { return attempt.socket == socket }
        return false
    }

    /// The socket whose `connect` request has id `request`, while its answer is awaited.
    func socketAwaitingHello(request: String) -> SocketID? {
        if case .authenticating(let attempt, let awaited, _) = state, awaited == request { return attempt.socket }
        return nil
    }

    /// Whether the handshake on `socket` is under way (a response may not be read behind events).
    func isHandshaking(on socket: SocketID) -> Bool {
        state.attempt?.socket == socket
    }

    /// The token of the pending reconnect wait; otherwise the latest token given out, which no wait
    /// started later will have.
    var reconnectToken: TimerToken {
        if case .waitingToReconnect(let wait) = state { return wait.timer }
        return TimerToken(rawValue: lastTimer)
    }

    // MARK: - Shared steps

    mutating func newSocket() -> SocketID {
        lastSocket += 1
        return SocketID(rawValue: lastSocket)
    }

    mutating func newTimer() -> TimerToken {
        lastTimer += 1
        return TimerToken(rawValue: lastTimer)
    }

    /// Moves to `next`, publishing the state callers see when it changed.
    mutating func move(to next: State, _ actions: inout [Action]) {
        let before = state.connectionState
        state = next
        let after = next.connectionState
        if after != before { actions.append(.publishState(after)) }
    }

    /// A new attempt on a new socket, for whoever waits in `connect()`.
    mutating func startAttempt(
        credential: CredentialStep? = nil, scopeRefusal: ScopeRefusal? = nil, loop: ReconnectLoop?,
        _ actions: inout [Action]
    ) {
        let socket = newSocket()
        let attempt = Attempt(
            socket: socket, credential: credential ?? (prefersSavedDeviceToken ? .savedDeviceToken : .configured),
            scopeRefusal: scopeRefusal, loop: loop)
        move(to: .connecting(attempt), &actions)
        actions.append(.openSocket(socket))
    }

    /// Waits before the next automatic attempt.
    ///
    /// - Parameters:
    ///   - connectedAt: when the connection that ended was established: one that stayed up for
    ///     ``ReconnectPolicy/stableAfter`` starts the backoff again from the first step.
    ///   - hint: the gateway's own estimate (`restartExpectedMs`, `retryAfterMs`); it replaces the
    ///     backoff for this attempt, and the attempt never comes earlier.
    mutating func scheduleReconnect(
        after cause: ReconnectStatus.Cause, hint: Duration?, loop: ReconnectLoop,
        connectedAt: ContinuousClock.Instant?, _ actions: inout [Action]
    ) {
        guard let policy = settings.reconnect else {
            switch cause {
            case .disconnected(let reason): move(to: .idle(reason), &actions)
            case .attemptFailed(let error): move(to: .failed(error, loop: nil), &actions)
            }
            return
        }
        let now = settings.now()
        var attempts = loop.attempts
        if let connectedAt, now - connectedAt >= policy.stableAfter { attempts = 0 }
        attempts += 1
        let unit = settings.randomUnit()
        let delay =
            hint.map { policy.hintedDelay($0, randomUnit: unit) }
            ?? policy.delay(forAttempt: attempts, randomUnit: unit)
        let status = ReconnectStatus(attempt: attempts, delay: delay, nextAttemptAt: now + delay, cause: cause)
        let timer = newTimer()
        actions.append(.startTimer(.reconnect, timer, after: delay))
        move(
            to: .waitingToReconnect(Wait(status: status, timer: timer, loop: ReconnectLoop(attempts: attempts))),
            &actions)
        actions.append(.note(.reconnecting(status)))
    }

    /// The connection on `ready.socket` is gone for `reason` (closed with `closeCode`, or, nil, by the
    /// gateway): reconnect when armed and the end was not our own doing, else rest in `idle`;
    /// subscribers hear `disconnected` either way.
    mutating func connectionEnded(
        _ ready: Ready, reason: DisconnectReason, closeCode: Int?, _ actions: inout [Action]
    ) {
        actions.append(.cancelTimer(.liveness))
        actions.append(.closeSocket(ready.socket, code: closeCode))
        actions.append(.failRequests(.connectionLost(reason)))
        actions.append(.note(.disconnected(reason)))
        if let loop = ready.loop, reason != .closedByClient {
            scheduleReconnect(
                after: .disconnected(reason), hint: reason.retryHint, loop: loop, connectedAt: ready.connectedAt,
                &actions)
        } else {
            move(to: .idle(reason), &actions)
        }
        actions.append(.announceDisconnected(reason))
    }

    /// The timer a handshake stage waits for, cancelled when the stage ends.
    static func timerName(of state: State) -> TimerName? {
        switch state {
        case .awaitingChallenge: .challenge
        case .authenticating: .handshake
        case .ready: .liveness
        case .waitingToReconnect: .reconnect
        case .idle, .connecting, .failed: nil
        }
    }
}
