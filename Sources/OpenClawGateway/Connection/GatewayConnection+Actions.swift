import Logging
import OpenClawProtocol

/// The interpreter of `ConnectionMachine`'s actions: what the machine decides, the actor does.
extension GatewayConnection {
    /// Performs `actions` in order, and those of the events they lead to at once (a `connect` that
    /// could not be written). Returns the socket work (closes, pings) for the caller to run after its
    /// turn: awaited where the caller may wait (``disconnect()`` returns once the socket is closed),
    /// handed to the owner otherwise (`start(_:)`).
    @discardableResult
    func perform(_ actions: [ConnectionMachine.Action]) -> SocketWork {
        var work = SocketWork()
        var queue = actions[...]
        var opening: SocketID?
        while let action = queue.popFirst() {
            let next = perform(action, work: &work, opening: &opening)
            if !next.isEmpty { queue = (Array(queue) + next)[...] }
        }
        if let opening {
            // A socket let go in the same step (a retry) is closed before the next one opens.
            openSocket(opening, after: work.closes)
            work.closes = []
        }
        return work
    }

    private func perform(
        _ action: ConnectionMachine.Action, work: inout SocketWork, opening: inout SocketID?
    ) -> [ConnectionMachine.Action] {
        switch action {
        case .openSocket(let socket):
            opening = socket
        case .sendConnect(let socket, let challenge, let request, let scopes, let savedDeviceToken):
            return sendConnect(
                socket, challenge: challenge, request: request, scopes: scopes, savedDeviceToken: savedDeviceToken)
        case .startTimer(let name, let token, let delay):
            clock.arm(name, token: token, after: delay)
        case .cancelTimer(let name):
            clock.cancel(name)
        case .sendPing(let socket):
            if let live, live.id == socket { work.pings.append(live.socket) }
        case .closeSocket(let socket, let code):
            guard let closing = live, closing.id == socket else { break }
            live = nil
            if pending.route?.generation == socket.rawValue { pending.closeRoute() }
            if let code { work.closes.append((closing.socket, code)) }
        case .failRequests(let error):
            pending.failAll(with: error)
        case .publishState(let newState):
            setState(newState)
        case .announceConnected(let session):
            if let current = live, current.id.rawValue == session.generation {
                live?.maxOutboundBytes = session.hello.policy.maxPayload
                live?.lastInbound = .now
            }
            publish(.connected(session), flow: .barrierAll)
        case .announceDisconnected(let reason):
            publish(.disconnected(reason), flow: .barrierAll)
        case .finishAttempt(let result):
            // Subscribers first: whoever returns from `connect()` finds `connected` already handed to them
            // (as when the handshake ran in a task of its own and published before it returned).
            releaseHeldEvents()
            let waiters = attemptWaiters
            attemptWaiters = []
            for waiter in waiters { waiter.resume(returning: result) }
        case .note(let note):
            log(note)
        }
        return []
    }

    /// A machine timer came due (see `ConnectionClock`); one whose token is no longer the machine's is
    /// ignored by the machine. Its socket work runs as a child of the owner: the clock ticks on.
    func timerFired(_ name: TimerName, _ token: TimerToken) {
        if clock.token(of: name) == token { clock.cancel(name) }
        let actions: [ConnectionMachine.Action]
        switch name {
        case .challenge: actions = machine.challengeTimerFired(token)
        case .handshake: actions = machine.handshakeTimerFired(token)
        case .reconnect: actions = machine.reconnectTimerFired(token)
        case .liveness:
            guard let live else { return }
            actions = machine.livenessTick(token, lastHeard: lastHeard(live.socket))
        }
        start(perform(actions))
    }

    private func log(_ note: ConnectionMachine.Note) {
        let url = "\(configuration.url)"
        switch note {
        case .connectFailed(let error):
            logger.notice("connect failed", metadata: ["url": "\(url)", "error": "\(error.message)"])
        case .fallingBackToSavedDeviceToken:
            logger.notice(
                "the gateway refused the configured token; trying this device's saved token once",
                metadata: ["url": "\(url)"])
        case .connected(let session):
            logger.info(
                "connected",
                metadata: [
                    "url": "\(url)", "protocol": "\(session.protocolVersion.rawValue)",
                    "server": "\(session.hello.server.version)",
                ])
        case .disconnected(let reason):
            logger.info("disconnected", metadata: ["reason": "\(reason)"])
        case .reconnecting(let status):
            logger.info(
                "reconnecting",
                metadata: [
                    "url": "\(url)", "attempt": "\(status.attempt)", "delayMs": "\(status.delay.milliseconds)",
                    "cause": "\(status.cause)",
                ])
        case .probing:
            logger.debug("the gateway went quiet; asking with a ping", metadata: ["url": "\(url)"])
        }
    }
}
