import OpenClawGateway

/// How much the outbox holds and for how long: a phone left offline for days must not flood the
/// gateway with stale messages when it comes back, nor drop them without telling.
public struct OutboxPolicy: Sendable, Equatable {
    /// Messages waiting for delivery per gateway; a send beyond it fails at once, with the reason.
    public var maxPending: Int
    /// After this long without delivery a message is marked failed (and kept for the user).
    public var expiry: Duration
    /// How soon a connected client tries again a message whose send timed out.
    public var retryInterval: Duration

    public init(maxPending: Int = 200, expiry: Duration = .seconds(48 * 3600), retryInterval: Duration = .seconds(5)) {
        self.maxPending = maxPending
        self.expiry = expiry
        self.retryInterval = retryInterval
    }

    /// Whether `message` has waited past the expiry at `nowMs`. Failed messages never expire again.
    public func hasExpired(_ message: OutboxMessage, nowMs: Int) -> Bool {
        if case .failed = message.state { return false }
        return nowMs - message.createdAtMs > expiry.milliseconds
    }

    /// The reason shown for an expired message.
    public var expiryReason: String {
        let hours = expiry.milliseconds / 3_600_000
        let span = hours >= 1 ? "\(hours) h" : "\(max(1, expiry.milliseconds / 60_000)) min"
        return "Not delivered within \(span); send it again or discard it."
    }
}
