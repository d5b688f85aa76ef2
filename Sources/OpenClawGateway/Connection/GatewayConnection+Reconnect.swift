import Logging
import OpenClawProtocol

/// Automatic reconnecting: the wait between attempts, the attempts themselves, and the person's
/// "try now".
///
/// The loop only runs once a handshake has succeeded (or ``GatewayConnection/keepConnected()`` asked
/// for it; see `ConnectionMachine.ReconnectLoop`): a first
/// `connect()` that fails reports to its caller and stops there. After that, an unexpected end of the
/// connection waits (``ConnectionState/reconnecting(_:)``) and tries again; a retryable failure waits
/// longer; an error retrying cannot fix pauses in `failed` until `connect()` or ``reconnectNow()``, so
/// that, for example, a pairing request is not replaced by a new one every few seconds.
extension GatewayConnection {
    /// Connect now, if the connection is not healthy: for an app coming back to the foreground, or the
    /// terminal's `/reconnect`.
    ///
    /// - Connected and frames arriving: nothing (no new socket).
    /// - Connected but silent for more than 1.5 tick intervals (a socket that died while the app was
    ///   suspended looks open until the liveness watch notices): closed, and a new one opened at once.
    /// - Waiting for a backoff: attempts at once.
    /// - Paused by an error that retrying cannot fix, or disconnected: tries once.
    /// - An attempt in flight: waits for it.
    ///
    /// Returns when the attempt is over; ``state`` says how it went.
    public func reconnectNow() async {
        if let session = state.session {
            let tickMs = max(1, session.hello.policy.tickIntervalMs)
            let allowed = Duration.milliseconds(tickMs * 3 / 2)
            guard isSilent(longerThan: allowed, generation: session.generation) else { return }
            logger.info("the connection went silent; replacing it", metadata: ["url": "\(configuration.url)"])
            await teardown(
                reason: .tickTimeout(silenceMs: allowed.milliseconds),
                closeCode: GatewayCloseCode.tickTimeout,
                generation: session.generation
            )
        }
        _ = try? await connect()
    }

    /// Connects and keeps the connection up from the first attempt on: unlike ``connect()``, a
    /// retryable failure of the very first attempt (an app launched in a dead zone, a gateway still
    /// starting) is retried on the backoff schedule, as a dropped connection would be. Errors retrying
    /// cannot fix still pause in `failed`. Without a reconnect policy this is one `connect()`.
    ///
    /// Returns when the first attempt is over; ``state`` says how it went.
    public func keepConnected() async {
        _ = await attempt(keepConnected: true)
    }

    /// Ends the connection on socket `generation` ourselves (it went silent), unless that socket is
    /// gone already: closed with `closeCode`, and reconnected when the loop is on.
    func teardown(reason: DisconnectReason, closeCode: Int, generation: Int) async {
        await perform(machine.closeRequested(SocketID(rawValue: generation), reason: reason, closeCode: closeCode))
            .run()
    }

    /// The token of the pending reconnect wait (or one no later wait has): for tests that fire a
    /// wait's timer late.
    var reconnectEpoch: Int { machine.reconnectToken.rawValue }

    /// A reconnect wait's timer fired (see ``reconnectEpoch``).
    func reconnectTimerFired(epoch: Int) async {
        timerFired(.reconnect, TimerToken(rawValue: epoch))
    }
}

extension GatewayError {
    /// How long the gateway asked us to wait before trying again, when it said.
    var retryHint: Duration? {
        switch self {
        case .gatewayUnavailable(let retryAfterMs?, _): return .milliseconds(retryAfterMs)
        case .authFailed(let failure): return failure.rateLimitWait
        case .connectionLost(let reason): return reason.retryHint
        default: return nil
        }
    }
}

extension DisconnectReason {
    /// A restarting gateway's `restartExpectedMs`: the first attempt waits at least that long.
    var retryHint: Duration? {
        if case .gatewayRestarting(let restartExpectedMs?) = self { return .milliseconds(restartExpectedMs) }
        return nil
    }
}
