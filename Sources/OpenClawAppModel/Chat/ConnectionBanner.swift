import OpenClawGateway

/// The strip above the chat when the connection is not simply fine: what is wrong, what to do, and
/// the one button that helps.
public struct ConnectionBanner: Sendable, Equatable {
    public enum Style: Sendable, Equatable {
        /// Connecting: a spinner, nothing to do.
        case progress
        /// Not connected; sending still works (messages wait in the outbox).
        case offline
        /// The last attempt failed for a reason the person must fix.
        case problem
    }

    public enum Action: Sendable, Equatable {
        case reconnect
        case openSettings
    }

    public let style: Style
    public let message: String
    public let detail: String?
    public let action: Action?

    /// Nil while connected. `now` places a pending reconnect attempt in time.
    public init?(_ state: ConnectionState, now: ContinuousClock.Instant = .now) {
        switch state {
        case .connected:
            return nil
        case .connecting:
            self.init(style: .progress, message: "Connecting…", detail: nil, action: nil)
        case .disconnected(nil), .disconnected(.closedByClient?):
            self.init(style: .offline, message: "Not connected.", detail: Self.outboxNote, action: .reconnect)
        case .disconnected(let reason?):
            self.init(
                style: .offline, message: "Disconnected: \(reason).", detail: Self.outboxNote, action: .reconnect)
        case .reconnecting(let status):
            // Worded for a phone: the cause first, then when the next attempt comes (the view redraws
            // the banner as the state changes; it is not a live countdown).
            let cause: String
            switch status.cause {
            case .disconnected(let reason): cause = "Disconnected: \(reason)."
            case .attemptFailed(let error): cause = error.message
            }
            let seconds = status.secondsRemaining(now: now)
            let when = seconds > 0 ? "Reconnecting in \(seconds) s…" : "Reconnecting…"
            self.init(style: .offline, message: "\(cause) \(when)", detail: Self.outboxNote, action: .reconnect)
        case .failed(let error):
            let action: Action?
            switch error {
            case .pairingRequired: action = nil
            case .authFailed, .invalidURL, .missingScope: action = .openSettings
            default: action = error.isRetryable ? .reconnect : .openSettings
            }
            self.init(
                style: error.isRetryable ? .offline : .problem, message: error.message, detail: error.nextStep,
                action: action)
        }
    }

    public init(style: Style, message: String, detail: String?, action: Action?) {
        self.style = style
        self.message = message
        self.detail = detail
        self.action = action
    }

    static let outboxNote = "Messages you send now are kept and delivered when the connection is back."
}
