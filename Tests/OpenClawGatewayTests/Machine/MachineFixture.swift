import OpenClawProtocol
import Synchronization

@testable import OpenClawGateway

/// A connection machine with a clock the test moves, no jitter, and helpers that walk it through a
/// handshake.
struct MachineFixture {
    typealias Action = ConnectionMachine.Action

    static let policy = ReconnectPolicy(
        initialDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: .none, stableAfter: .seconds(10))
    static let challenge = ConnectChallenge(nonce: "n", ts: 1)
    static let refusedToken = GatewayError.AuthFailure(
        code: .authTokenMismatch, message: "token mismatch", canRetryWithDeviceToken: true)

    let clock = TestClock()
    var machine: ConnectionMachine

    init(reconnect: ReconnectPolicy? = Self.policy, optionalScopes: [String] = []) {
        let clock = self.clock
        machine = ConnectionMachine(
            settings: ConnectionMachine.Settings(
                reconnect: reconnect, scopes: ["operator.read"], optionalScopes: optionalScopes,
                challengeTimeout: .seconds(6), connectTimeout: .seconds(12), tickTolerance: 2,
                randomUnit: { 0.5 }, now: { clock.now }))
    }

    static func hello(tickIntervalMs: Int = 1000) -> HelloOk {
        let json: JSONValue = [
            "type": "hello-ok", "protocol": 3, "server": ["version": "t", "connId": "c"],
            "policy": ["tickIntervalMs": .int(tickIntervalMs), "maxPayload": 1_000_000, "maxBufferedBytes": 1_000_000],
        ]
        guard let hello = HelloOk(json: json) else { fatalError("the test hello-ok does not parse") }
        return hello
    }

    /// The socket the machine is opening (after `connectRequested`).
    var opening: SocketID? {
        if case .connecting(let attempt) = machine.state { return attempt.socket }
        return nil
    }

    /// Opens the socket being opened and takes its challenge: `connect` is on its way as `request`.
    @discardableResult
    mutating func authenticate(request: String = "r") -> SocketID? {
        guard let socket = opening else { return nil }
        _ = machine.socketOpened(socket)
        _ = machine.challengeReceived(socket, .success(Self.challenge), request: request)
        return socket
    }

    /// Connects from scratch (or from wherever `connectRequested` starts an attempt).
    @discardableResult
    mutating func connect(keepConnected: Bool = false) -> SocketID? {
        _ = machine.connectRequested(keepConnected: keepConnected)
        guard let socket = authenticate() else { return nil }
        _ = machine.helloReceived(socket, hello: Self.hello(), protocolVersion: .v3, deviceId: "d")
        return socket
    }

    /// The timer of `name` the last of `actions` starts.
    static func timer(_ name: TimerName, in actions: [Action]) -> TimerToken? {
        actions.reversed().lazy.compactMap { action -> TimerToken? in
            if case .startTimer(name, let token, _) = action { return token }
            return nil
        }.first
    }

    /// The socket `actions` open.
    static func opened(in actions: [Action]) -> SocketID? {
        actions.lazy.compactMap { action -> SocketID? in
            if case .openSocket(let socket) = action { return socket }
            return nil
        }.first
    }

    var waitToken: TimerToken? {
        if case .waitingToReconnect(let wait) = machine.state { return wait.timer }
        return nil
    }
}

/// A clock that moves only when told.
final class TestClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 += duration } }
}
