import OpenClawGateway
import OpenClawProtocol

/// How one `chat.send` attempt ended, as the outbox needs to know it: whether the gateway can have the
/// message, and so whether resending (always with the same idempotency key) is needed and safe.
enum SendAttemptOutcome: Sendable, Equatable {
    /// Acknowledged: the gateway has it. Confirmed later by history.
    case accepted(ChatSendAck)
    /// A stop command: the gateway stopped the session's runs and stored nothing, so there is nothing
    /// to confirm and nothing to send again.
    case handledAsCommand
    /// The request never reached the gateway, or the gateway said to try again: send again.
    case neverLeft
    /// The connection ended or went quiet after the request left: the gateway may have it. Send again
    /// with the same key; the gateway deduplicates, so this cannot double the message.
    case ambiguous
    /// The gateway refused the message itself: resending unchanged would fail again.
    case rejected(reason: String)

    init(result: ChatSendResult) {
        switch result {
        case .run(let ack): self.init(ack: ack)
        case .stopCommand: self = .handledAsCommand
        }
    }

    init(ack: ChatSendAck) {
        self =
            ack.status == .error
            ? .rejected(reason: ack.summary ?? "The gateway did not accept the message.") : .accepted(ack)
    }

    init(error: GatewayError) {
        switch error {
        case .notConnected, .invalidURL, .transport, .challengeTimeout, .invalidChallenge, .gatewayUnavailable,
            .authFailed,
            .pairingRequired, .protocolMismatch, .unsupportedProtocol, .deviceIdentityRejected, .localStorage:
            // Connection-level problems: the message itself is fine and waits for a working connection.
            self = .neverLeft
        case .connectionLost, .timeout, .invalidResponse, .cancelled:
            self = .ambiguous
        case .requestFailed(_, let shape) where shape.retryable == true:
            self = .neverLeft
        case .requestFailed, .missingScope, .payloadTooLarge, .attachment:
            self = .rejected(reason: error.message)
        }
    }

    /// Whether the messages typed after this one must wait: it could not be handed over, and sending
    /// them first would deliver them out of the order they were typed.
    var holdsBackLaterMessages: Bool {
        switch self {
        case .neverLeft, .ambiguous: true
        case .accepted, .handledAsCommand, .rejected: false
        }
    }

    /// The outbox state this outcome leaves the message in; nil when it leaves the outbox.
    var outboxState: OutboxState? {
        switch self {
        case .handledAsCommand: nil
        case .accepted: .accepted
        case .neverLeft: .queued
        case .ambiguous: .ambiguous
        case .rejected(let reason): .failed(reason: reason)
        }
    }
}
