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
    /// How long after an unanswered attempt a resend with the same key is still deduplicated: the
    /// gateway remembers a finished key for 5 minutes (`DEDUPE_TTL_MS`, counted from the run's end,
    /// which is later than the attempt); 4.5 minutes leaves room for the attempt's travel and clocks.
    /// Past it the gateway may have forgotten the key, and a resend could run the message twice.
    public var duplicateWindow: Duration

    public init(
        maxPending: Int = 200,
        expiry: Duration = .seconds(48 * 3600),
        retryInterval: Duration = .seconds(5),
        duplicateWindow: Duration = .seconds(270)
    ) {
        self.maxPending = maxPending
        self.expiry = expiry
        self.retryInterval = retryInterval
        self.duplicateWindow = duplicateWindow
    }

    /// Whether `message` has waited past the expiry at `nowMs`. Only messages still to be delivered
    /// expire: an accepted one is on the gateway, a failed or unconfirmed one waits for the user.
    public func hasExpired(_ message: OutboxMessage, nowMs: Int) -> Bool {
        guard message.state.needsDelivery else { return false }
        return nowMs - message.createdAtMs > expiry.milliseconds
    }

    /// Whether resending `message` now could start a second run: an attempt may have reached the
    /// gateway longer ago than ``duplicateWindow``.
    public func isPastDuplicateWindow(_ message: OutboxMessage, nowMs: Int) -> Bool {
        guard let since = message.uncertainSinceMs else { return false }
        return nowMs - since >= duplicateWindow.milliseconds
    }

    /// The reason shown for an expired message.
    public var expiryReason: String {
        let hours = expiry.milliseconds / 3_600_000
        let span = hours >= 1 ? "\(hours) h" : "\(max(1, expiry.milliseconds / 60_000)) min"
        return "Not delivered within \(span); send it again or discard it."
    }
}
