import OpenClawProtocol

/// Which socket an event is about: a new one for every socket opened, so that whatever is still under
/// way for an old socket (a frame read late, its close, a timer) is matched by no state.
struct SocketID: Hashable, Comparable, Sendable, CustomStringConvertible {
    let rawValue: Int

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    var description: String { "socket \(rawValue)" }
}

/// Which start of a timer fires: a state keeps the token of the timer it waits for, so a timer
/// cancelled or replaced that fires anyway is matched by no state.
struct TimerToken: Hashable, Sendable {
    let rawValue: Int
}

/// The connection's timers; starting one replaces any other of the same name.
enum TimerName: Hashable, Sendable, CaseIterable {
    /// The wait for `connect.challenge`.
    case challenge
    /// The wait for the answer to `connect`.
    case handshake
    /// The silence watch of an established connection.
    case liveness
    /// The wait before the next automatic attempt.
    case reconnect
}

extension ConnectionMachine {
    /// What the connection must do after an event, in order.
    enum Action: Equatable, Sendable {
        /// Open a socket (after loading this device's identity) and report with `socketOpened` or
        /// `socketOpenFailed`.
        case openSocket(SocketID)
        /// Answer the challenge: send `connect` as request `request`, asking for `scopes`, with the saved
        /// device token beside the configured credential or not.
        case sendConnect(
            SocketID, challenge: ConnectChallenge, request: String, scopes: [String], savedDeviceToken: Bool)
        case startTimer(TimerName, TimerToken, after: Duration)
        case cancelTimer(TimerName)
        /// Ask a quiet gateway whether it is still there.
        case sendPing(SocketID)
        /// Let the socket go: close it with `code`, or (nil) only forget it, when the gateway closed it.
        case closeSocket(SocketID, code: Int?)
        /// Fail every pending request.
        case failRequests(GatewayError)
        /// Set and publish the state callers see.
        case publishState(ConnectionState)
        /// Tell event subscribers a handshake completed, and allow the gateway's payload limit.
        case announceConnected(GatewaySession)
        /// Tell event subscribers the connection ended.
        case announceDisconnected(DisconnectReason)
        /// The attempt callers of `connect()` wait for is over.
        case finishAttempt(Result<GatewaySession, GatewayError>)
        /// Something worth a line in the log.
        case note(Note)
    }

    /// What is logged; never a secret.
    enum Note: Equatable, Sendable {
        case connectFailed(GatewayError)
        case fallingBackToSavedDeviceToken
        case connected(GatewaySession)
        case disconnected(DisconnectReason)
        case reconnecting(ReconnectStatus)
        case probing
    }
}
