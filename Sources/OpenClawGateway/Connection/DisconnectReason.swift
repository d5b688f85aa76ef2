import OpenClawProtocol

/// Why an established connection ended, from the close code, a preceding `shutdown`, or our own checks.
public enum DisconnectReason: Sendable, Equatable, CustomStringConvertible {
    /// We closed it (user action, app going away).
    case closedByClient
    /// The socket dropped without a close frame: network loss, sleep, the gateway process killed.
    case connectionLost
    /// No frame for twice the tick interval: the connection is dead even if the socket looks open.
    case tickTimeout(silenceMs: Int)
    /// The gateway is restarting (`shutdown` event and/or close 1012).
    case gatewayRestarting(restartExpectedMs: Int?)
    /// Close 1013: the gateway is starting or temporarily unavailable.
    case gatewayUnavailable
    /// Close 4001: the gateway's shared token or password changed since we authenticated.
    case authChanged
    /// The gateway closed with 1009: a message from this client was larger than it accepts.
    case messageTooLarge
    /// This client closed with 1009: the gateway sent a message larger than `limitBytes` (this
    /// connection's inbound limit, `maxInboundFrameBytes`).
    case inboundTooLarge(limitBytes: Int)
    /// Close 1008: a policy violation (slow consumer, repeated unauthorised calls), with the gateway's
    /// close reason.
    case policyViolation(reason: String?)
    /// Close 1002.
    case protocolError
    /// Any other close code, with the gateway's close reason (sanitised: printable, at most 123 bytes).
    case closed(code: Int, reason: String?)

    static func from(
        closeCode code: Int?, reason: String? = nil, pendingShutdown: ShutdownEvent?
    )
        -> DisconnectReason
    {
        if let pendingShutdown { return .gatewayRestarting(restartExpectedMs: pendingShutdown.restartExpectedMs) }
        guard let code else { return .connectionLost }
        switch code {
        case GatewayCloseCode.serviceRestart: return .gatewayRestarting(restartExpectedMs: nil)
        case GatewayCloseCode.tryAgainLater: return .gatewayUnavailable
        case GatewayCloseCode.authChanged: return .authChanged
        case GatewayCloseCode.messageTooBig: return .messageTooLarge
        case GatewayCloseCode.policyViolation: return .policyViolation(reason: reason)
        case GatewayCloseCode.protocolError: return .protocolError
        default: return .closed(code: code, reason: reason)
        }
    }

    public var description: String {
        switch self {
        case .closedByClient: return "closed by this client"
        case .connectionLost: return "the connection dropped"
        case .tickTimeout(let silence):
            let span = silence < 1000 ? "\(silence) ms" : "\(silence / 1000) s"
            return "no sign of life from the gateway for \(span)"
        case .gatewayRestarting(let expected):
            if let expected { return "the gateway is restarting (back in about \(max(1, expected / 1000)) s)" }
            return "the gateway is restarting"
        case .gatewayUnavailable: return "the gateway is starting up or temporarily unavailable"
        case .authChanged: return "the gateway's token or password was changed"
        case .messageTooLarge: return "the gateway refused a message from this client as too large"
        case .inboundTooLarge(let limit):
            return "the gateway sent a frame larger than \(Self.size(limit)), the most this connection accepts"
        case .policyViolation(let reason):
            return "the gateway closed the connection (policy violation\(reason.map { ": \($0)" } ?? ""))"
        case .protocolError: return "the gateway closed the connection (protocol error)"
        case .closed(let code, let reason):
            return "the gateway closed the connection (code \(code)\(reason.map { ": \($0)" } ?? ""))"
        }
    }
}

extension DisconnectReason {
    /// `25 MiB`, `64 KiB`, `1000 bytes`: a limit as a person reads it.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// A peer's close reason made safe to show: control characters removed, at most 123 bytes (the
    /// most a close frame can carry), nil when empty.
    static func sanitizedCloseReason(_ text: String?) -> String? {
        guard let text else { return nil }
        var result = ""
        for character in text where !character.isControlCharacter {
            guard result.utf8.count + character.utf8.count <= 123 else { break }
            result.append(character)
        }
        let trimmed = result.trimmingWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension Character {
    fileprivate var isControlCharacter: Bool { unicodeScalars.contains { $0.properties.generalCategory == .control } }
}

extension String {
    /// By index, not as `drop(while:).reversed().drop(while:).reversed()`: that nest of generic wrappers had
    /// the runtime look up its conformances the first time, a scan of every conformance record in the
    /// binary, in every process that closes a connection (about 0.4 ms of a `send`).
    fileprivate var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
