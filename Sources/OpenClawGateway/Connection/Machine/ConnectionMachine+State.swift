import OpenClawProtocol

extension ConnectionMachine {
    /// Where the connection stands, with what each stage needs and nothing more: the socket and timer
    /// of a stage live in that stage, so an event for another socket or timer matches nothing.
    enum State: Equatable, Sendable {
        /// No socket and nothing scheduled: before the first attempt (nil), or why the last connection
        /// ended.
        case idle(DisconnectReason?)
        /// The socket of `attempt` is being opened.
        case connecting(Attempt)
        /// The socket is open; the gateway's `connect.challenge` is awaited until `timer` fires.
        case awaitingChallenge(Attempt, timer: TimerToken)
        /// `connect` went out as request `request`; its answer is awaited until `timer` fires.
        case authenticating(Attempt, request: String, timer: TimerToken)
        /// The handshake is complete.
        case ready(Ready)
        /// The next automatic attempt comes when `wait.timer` fires.
        case waitingToReconnect(Wait)
        /// The last attempt failed; nothing tries again until the person acts. `loop` says whether a
        /// later failure of theirs is retried on the backoff schedule.
        case failed(GatewayError, loop: ReconnectLoop?)
    }

    /// The automatic reconnecting, while it is on: how many attempts were made since the last
    /// connection that proved stable (the backoff step).
    struct ReconnectLoop: Equatable, Sendable {
        var attempts: Int
    }

    /// Which credential an attempt presents.
    enum CredentialStep: Equatable, Sendable {
        /// The configured credential alone; a refusal that offers it falls back to the saved device token.
        case configured
        /// The saved device token beside the configured one, as the last successful sign-in did.
        case savedDeviceToken
        /// The saved device token beside the configured one, which was refused with `refusal`: when this
        /// is refused too, the first refusal is what the person sees (the configured token needs fixing).
        case fallback(after: GatewayError.AuthFailure)

        var sendsSavedDeviceToken: Bool { self != .configured }
    }

    /// One attempt: which socket, which credential, which scopes.
    struct Attempt: Equatable, Sendable {
        var socket: SocketID
        var credential: CredentialStep
        /// The optional scopes went without, after the gateway refused them; nil while asking for all.
        var scopeRefusal: ScopeRefusal?
        /// Set when a retryable failure of this attempt is to be retried on the backoff schedule.
        var loop: ReconnectLoop?
    }

    /// An established connection.
    struct Ready: Equatable, Sendable {
        var socket: SocketID
        var session: GatewaySession
        var connectedAt: ContinuousClock.Instant
        /// Nil when a lost connection is not re-established by itself.
        var loop: ReconnectLoop?
        var liveness: Liveness
        /// The gateway's announced shutdown, which says what its close means.
        var shutdown: ShutdownEvent?
    }

    /// The silence watch of a connection (see `livenessTick`).
    struct Liveness: Equatable, Sendable {
        var timer: TimerToken
        /// Silence after which a ping asks whether the gateway is still there.
        var probeAfter: Duration
        /// Silence after which, the ping unanswered, the socket is given up.
        var allowedSilence: Duration
        var checkEvery: Duration
        /// When the ping for the current silence went out; nil while the gateway is heard from.
        var probeSentAt: ContinuousClock.Instant?
    }

    /// A wait before the next automatic attempt.
    struct Wait: Equatable, Sendable {
        var status: ReconnectStatus
        var timer: TimerToken
        var loop: ReconnectLoop
    }
}

extension ConnectionMachine.State {
    /// The state as callers see it.
    var connectionState: ConnectionState {
        switch self {
        case .idle(let reason): .disconnected(reason)
        case .connecting, .awaitingChallenge, .authenticating: .connecting
        case .ready(let ready): .connected(ready.session)
        case .waitingToReconnect(let wait): .reconnecting(wait.status)
        case .failed(let error, _): .failed(error)
        }
    }

    /// The attempt under way, in any stage of the handshake.
    var attempt: ConnectionMachine.Attempt? {
        switch self {
        case .connecting(let attempt), .awaitingChallenge(let attempt, _), .authenticating(let attempt, _, _):
            attempt
        case .idle, .ready, .waitingToReconnect, .failed: nil
        }
    }
}
