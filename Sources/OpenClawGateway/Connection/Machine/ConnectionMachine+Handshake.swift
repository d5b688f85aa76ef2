import OpenClawProtocol

/// The events of an attempt: asked for, socket, challenge, `connect` answered, and how it ends.
extension ConnectionMachine {
    /// `connect()` (or, with `keepConnected`, `keepConnected()`): a new attempt unless one is under way
    /// or the connection is up; an attempt under way is joined. While waiting to reconnect, the wait is
    /// dropped and the attempt made at once; while paused in `failed`, this is the attempt the person
    /// asked for.
    ///
    /// - Parameter keepConnected: a retryable failure of this very attempt is retried on the backoff
    ///   schedule (when there is a reconnect policy), as a dropped connection would be.
    mutating func connectRequested(keepConnected: Bool = false) -> [Action] {
        var actions: [Action] = []
        let arming = keepConnected && settings.reconnect != nil ? ReconnectLoop(attempts: 0) : nil
        switch state {
        case .ready:
            break
        case .connecting(var attempt):
            attempt.loop = attempt.loop ?? arming
            state = .connecting(attempt)
        case .awaitingChallenge(var attempt, let timer):
            attempt.loop = attempt.loop ?? arming
            state = .awaitingChallenge(attempt, timer: timer)
        case .authenticating(var attempt, let request, let timer):
            attempt.loop = attempt.loop ?? arming
            state = .authenticating(attempt, request: request, timer: timer)
        case .idle:
            startAttempt(loop: arming, &actions)
        case .failed(_, let loop):
            startAttempt(loop: loop ?? arming, &actions)
        case .waitingToReconnect(let wait):
            actions.append(.cancelTimer(.reconnect))
            startAttempt(loop: wait.loop, &actions)
        }
        return actions
    }

    /// The socket is open: the gateway's challenge is awaited for `challengeTimeout`.
    mutating func socketOpened(_ socket: SocketID) -> [Action] {
        guard case .connecting(let attempt) = state, attempt.socket == socket else { return [] }
        let timer = newTimer()
        state = .awaitingChallenge(attempt, timer: timer)
        return [.startTimer(.challenge, timer, after: settings.challengeTimeout)]
    }

    /// The socket could not be opened (or this device's identity not loaded).
    mutating func socketOpenFailed(_ socket: SocketID, _ error: GatewayError) -> [Action] {
        guard case .connecting(let attempt) = state, attempt.socket == socket else { return [] }
        return attemptFailed(attempt, error: error)
    }

    /// The `connect.challenge` arrived (or could not be read): `connect` goes out as request `request`,
    /// answered within `connectTimeout`.
    mutating func challengeReceived(
        _ socket: SocketID, _ challenge: Result<ConnectChallenge, GatewayError>, request: String
    ) -> [Action] {
        guard case .awaitingChallenge(let attempt, _) = state, attempt.socket == socket else { return [] }
        switch challenge {
        case .failure(let error):
            return attemptFailed(attempt, error: error)
        case .success(let challenge):
            let timer = newTimer()
            state = .authenticating(attempt, request: request, timer: timer)
            let scopes =
                attempt.scopeRefusal == nil ? settings.scopes + settings.optionalScopes : settings.scopes
            return [
                .cancelTimer(.challenge),
                .sendConnect(
                    socket, challenge: challenge, request: request, scopes: scopes,
                    savedDeviceToken: attempt.credential.sendsSavedDeviceToken),
                .startTimer(.handshake, timer, after: settings.connectTimeout),
            ]
        }
    }

    mutating func challengeTimerFired(_ token: TimerToken) -> [Action] {
        guard case .awaitingChallenge(let attempt, let timer) = state, timer == token else { return [] }
        return attemptFailed(attempt, error: .challengeTimeout(afterMs: settings.challengeTimeout.milliseconds))
    }

    mutating func handshakeTimerFired(_ token: TimerToken) -> [Action] {
        guard case .authenticating(let attempt, _, let timer) = state, timer == token else { return [] }
        return attemptFailed(
            attempt, error: .timeout(method: "connect", afterMs: settings.connectTimeout.milliseconds))
    }

    /// `hello-ok`: the connection is up. From now on a lost connection heals itself when there is a
    /// reconnect policy; the backoff starts again from the first step once this connection has proven
    /// stable (see `ReconnectPolicy.stableAfter`).
    mutating func helloReceived(
        _ socket: SocketID, hello: HelloOk, protocolVersion: ProtocolVersion, deviceId: String
    ) -> [Action] {
        guard case .authenticating(let attempt, _, _) = state, attempt.socket == socket else { return [] }
        if attempt.credential.sendsSavedDeviceToken { prefersSavedDeviceToken = true }
        let scopes = attempt.scopeRefusal == nil ? settings.scopes + settings.optionalScopes : settings.scopes
        let session = GatewaySession(
            hello: hello, protocolVersion: protocolVersion, deviceId: deviceId, scopes: scopes,
            generation: socket.rawValue, scopeRefusal: attempt.scopeRefusal)
        let interval = hello.policy.tickIntervalMs.clamped(to: PolicyBounds.tickIntervalMs)
        let tolerance = settings.tickTolerance.clamped(to: PolicyBounds.tickTolerance)
        let liveness = Liveness(
            timer: newTimer(), probeAfter: .milliseconds(interval * max(1, tolerance - 1)),
            allowedSilence: .milliseconds(interval * tolerance), checkEvery: .milliseconds(max(20, interval / 4)))
        let loop = settings.reconnect == nil ? nil : ReconnectLoop(attempts: attempt.loop?.attempts ?? 0)
        var actions: [Action] = [
            .cancelTimer(.handshake), .startTimer(.liveness, liveness.timer, after: liveness.checkEvery),
        ]
        let ready = Ready(
            socket: socket, session: session, connectedAt: settings.now(), loop: loop, liveness: liveness)
        move(to: .ready(ready), &actions)
        actions += [.announceConnected(session), .note(.connected(session)), .finishAttempt(.success(session))]
        return actions
    }

    /// The gateway refused `connect` with `error`.
    ///
    /// - Parameter savedTokenUsable: whether this device has a saved token of its own, different from
    ///   the configured one, that may be sent here (see `GatewayConnection.savedDeviceTokenUsable()`).
    mutating func refused(_ socket: SocketID, _ error: GatewayError, savedTokenUsable: Bool) -> [Action] {
        guard case .authenticating(let attempt, _, _) = state, attempt.socket == socket else { return [] }
        return attemptFailed(attempt, error: error, savedTokenUsable: savedTokenUsable, mayDropScopes: true)
    }

    /// The handshake cannot go on for a reason of ours (an unreadable `hello-ok`, an unsupported
    /// version, a `connect` that could not be built or written).
    mutating func handshakeFailed(_ socket: SocketID, _ error: GatewayError) -> [Action] {
        guard let attempt = state.attempt, attempt.socket == socket else { return [] }
        return attemptFailed(attempt, error: error)
    }

    /// How an attempt ends: once more without the optional scopes when the gateway refused them (and
    /// `mayDropScopes`), once more with the saved device token when the gateway refused the configured
    /// one and offered that; otherwise the attempt is over, and it is retried later when the loop is
    /// on and the error is one retrying can fix, or the connection pauses in `failed`.
    mutating func attemptFailed(
        _ attempt: Attempt, error: GatewayError, savedTokenUsable: Bool = false, mayDropScopes: Bool = false
    ) -> [Action] {
        var actions: [Action] = []
        if let timer = Self.timerName(of: state) { actions.append(.cancelTimer(timer)) }
        // A socket still being opened is closed when it arrives (it is expected no more).
        if case .connecting = state {
        } else {
            actions.append(.closeSocket(attempt.socket, code: GatewayCloseCode.normal))
        }
        if mayDropScopes, attempt.scopeRefusal == nil, !settings.optionalScopes.isEmpty,
            let upgrade = error.scopeUpgrade
        {
            let refusal = ScopeRefusal(scopes: settings.optionalScopes, pairing: upgrade.pairing)
            startAttempt(credential: attempt.credential, scopeRefusal: refusal, loop: attempt.loop, &actions)
            return actions
        }
        actions.append(.note(.connectFailed(error)))
        if case .authFailed(let failure) = error, attempt.credential == .configured, savedTokenUsable,
            failure.offersDeviceTokenRetry
        {
            actions.append(.note(.fallingBackToSavedDeviceToken))
            startAttempt(credential: .fallback(after: failure), loop: attempt.loop, &actions)
            return actions
        }
        var reported = error
        if case .authFailed = error {
            if case .fallback(let first) = attempt.credential {
                // Another refusal (the saved token is stale too): the refused shared token is the news.
                reported = .authFailed(first)
            } else {
                prefersSavedDeviceToken = false
            }
        }
        if let loop = attempt.loop, error.isRetryable {
            scheduleReconnect(
                after: .attemptFailed(error), hint: error.retryHint, loop: loop, connectedAt: nil, &actions)
        } else {
            move(to: .failed(reported, loop: attempt.loop), &actions)
        }
        actions.append(.finishAttempt(.failure(reported)))
        return actions
    }
}

extension GatewayError.AuthFailure {
    /// Whether the gateway offers a retry with this device's own token (as upstream clients read it).
    var offersDeviceTokenRetry: Bool {
        canRetryWithDeviceToken || recommendedNextStep == .retryWithDeviceToken
    }
}
