import OpenClawProtocol

/// The events of a socket's end, the silence watch, the reconnect wait and `disconnect()`.
extension ConnectionMachine {
    /// How a socket ended on the gateway's side.
    enum SocketEnd: Equatable, Sendable {
        /// A close frame (or none: the code is nil) with its reason.
        case closed(code: Int?, reason: String?)
        /// A message exceeded the inbound limit; the transport closed the socket (1009).
        case tooLarge(limitBytes: Int)
    }

    /// The socket ended: an established connection ends (and reconnects when armed); a handshake in
    /// progress fails with what the close says (a refusal given as a close reason is a refusal).
    ///
    /// - Parameter savedTokenUsable: as for ``refused(_:_:savedTokenUsable:)``.
    mutating func socketEnded(_ socket: SocketID, _ end: SocketEnd, savedTokenUsable: Bool = false) -> [Action] {
        switch state {
        case .ready(let ready) where ready.socket == socket:
            var actions: [Action] = []
            let reason: DisconnectReason
            switch end {
            case .closed(let code, let text):
                reason = DisconnectReason.from(closeCode: code, reason: text, pendingShutdown: ready.shutdown)
            case .tooLarge(let limit):
                reason = .inboundTooLarge(limitBytes: limit)
            }
            connectionEnded(ready, reason: reason, closeCode: nil, &actions)
            return actions
        case .awaitingChallenge(let attempt, _) where attempt.socket == socket,
            .authenticating(let attempt, _, _) where attempt.socket == socket:
            let error: GatewayError
            switch end {
            case .closed(let code, let text):
                error = GatewayErrorClassifier.handshakeClose(code: code, reason: text, pendingShutdown: nil)
            case .tooLarge(let limit):
                error = .connectionLost(.inboundTooLarge(limitBytes: limit))
            }
            return attemptFailed(attempt, error: error, savedTokenUsable: savedTokenUsable)
        default:
            return []
        }
    }

    /// The gateway announced a shutdown: its close will mean a restart (or not), as the event says.
    mutating func shutdownAnnounced(_ socket: SocketID, _ shutdown: ShutdownEvent?) -> [Action] {
        guard case .ready(var ready) = state, ready.socket == socket else { return [] }
        ready.shutdown = shutdown
        state = .ready(ready)
        return []
    }

    /// The silence watch's turn. Silence is a question, not a verdict: some gateways advertise a tick
    /// interval and never tick, and closing them after two silent intervals dropped healthy
    /// connections. So after `probeAfter` of silence a ping asks; any frame (its pong included)
    /// answers. Only when the silence reaches `allowedSilence` with the ping unanswered, and the ping
    /// has had the rest of the allowance however late it went out (a busy machine delays this watch),
    /// is the socket closed (4000, `tickTimeout`).
    ///
    /// - Parameter lastHeard: when anything last came from the socket (now, while frames wait to be
    ///   read: a reader held back by a slow subscriber is not silence).
    mutating func livenessTick(_ token: TimerToken, lastHeard: ContinuousClock.Instant) -> [Action] {
        guard case .ready(var ready) = state, ready.liveness.timer == token else { return [] }
        let now = settings.now()
        var watch = ready.liveness
        if let probe = watch.probeSentAt, lastHeard > probe { watch.probeSentAt = nil }
        let silence = now - lastHeard
        var actions: [Action] = []
        if silence > watch.probeAfter {
            if let probe = watch.probeSentAt {
                if silence > watch.allowedSilence, now - probe >= watch.allowedSilence - watch.probeAfter {
                    connectionEnded(
                        ready, reason: .tickTimeout(silenceMs: watch.allowedSilence.milliseconds),
                        closeCode: GatewayCloseCode.tickTimeout, &actions)
                    return actions
                }
            } else {
                watch.probeSentAt = now
                actions += [.note(.probing), .sendPing(ready.socket)]
            }
        }
        if watch != ready.liveness {
            ready.liveness = watch
            state = .ready(ready)
        }
        actions.append(.startTimer(.liveness, token, after: watch.checkEvery))
        return actions
    }

    /// We end the connection on `socket` (it went silent): closed with `closeCode`, and reconnected
    /// when armed.
    mutating func closeRequested(_ socket: SocketID, reason: DisconnectReason, closeCode: Int) -> [Action] {
        guard case .ready(let ready) = state, ready.socket == socket else { return [] }
        var actions: [Action] = []
        connectionEnded(ready, reason: reason, closeCode: closeCode, &actions)
        return actions
    }

    /// The wait is over: attempt, unless the wait was cancelled or replaced meanwhile.
    mutating func reconnectTimerFired(_ token: TimerToken) -> [Action] {
        guard case .waitingToReconnect(let wait) = state, wait.timer == token else { return [] }
        var actions: [Action] = []
        startAttempt(loop: wait.loop, &actions)
        return actions
    }

    /// `disconnect()`: the socket closes (1000) and nothing reconnects until the next `connect()`.
    /// A paused failure stays as it is (only no longer armed); an attempt under way ends for its
    /// callers with the connection closed by the client.
    mutating func disconnectRequested() -> [Action] {
        var actions: [Action] = []
        let reason = DisconnectReason.closedByClient
        switch state {
        case .idle:
            break
        case .failed(let error, _):
            state = .failed(error, loop: nil)
        case .waitingToReconnect:
            actions.append(.cancelTimer(.reconnect))
            move(to: .idle(reason), &actions)
        case .ready(var ready):
            ready.loop = nil
            connectionEnded(ready, reason: reason, closeCode: GatewayCloseCode.normal, &actions)
        case .connecting, .awaitingChallenge, .authenticating:
            guard let attempt = state.attempt else { break }
            if let timer = Self.timerName(of: state) { actions.append(.cancelTimer(timer)) }
            if case .connecting = state {
            } else {
                actions.append(.closeSocket(attempt.socket, code: GatewayCloseCode.normal))
            }
            move(to: .idle(reason), &actions)
            actions.append(.finishAttempt(.failure(.connectionLost(reason))))
        }
        return actions
    }
}
