/// The outbox's state and rules: what waits for delivery, what to do with each message next, and what
/// each outcome does to it. Pure: every input is a typed value (a message, an attempt's outcome, the
/// time), every result a value; the view model carries them out (the network call, the store write,
/// the transcript row), so the rules are tested without a gateway or a clock.
///
/// The guarantees: a message is in the outbox before its first attempt and leaves it only when the
/// gateway's history shows it (or, once acked, its run has ended), it was a stop command, or the user
/// discards it. Every attempt uses the message's idempotency key, so resending after an ambiguous
/// outcome cannot double it while the gateway remembers the key; past that window history decides,
/// and a message it does not show becomes `unconfirmed` for the user. Delivery stops at the first
/// message that could not be handed over, so messages arrive in the order they were typed.
public struct Outbox: Sendable, Equatable {
    /// What the flush does with a message that waits for delivery.
    public enum DeliveryStep: Sendable, Equatable {
        /// Send it (again, with the same idempotency key).
        case attempt
        /// An attempt may have reached the gateway longer ago than it remembers keys: ask history
        /// instead of sending, since a resend could start a second run.
        case settleFromHistory
    }

    /// Every gateway session's messages not yet confirmed, oldest first.
    public private(set) var messages: [OutboxMessage]
    public let policy: OutboxPolicy

    public init(messages: [OutboxMessage] = [], policy: OutboxPolicy = OutboxPolicy()) {
        self.messages = messages
        self.policy = policy
    }

    public func message(id: String) -> OutboxMessage? { messages.first { $0.id == id } }

    public func contains(id: String) -> Bool { messages.contains { $0.id == id } }

    /// The ids waiting for delivery, in the order they must be delivered.
    public var deliveryOrder: [String] { messages.filter(\.state.needsDelivery).map(\.id) }

    /// Whether anything still waits for a working connection (a retry is worth scheduling).
    public var hasUndelivered: Bool { messages.contains { $0.state.needsDelivery } }

    /// The messages of `session` that history now shows (`row(id)` is the transcript's row for a
    /// message), and acked ones whose row is gone: their run ended and the page does not show them (out
    /// of its window, or hidden); the ack proved the gateway has them, so nothing is left to deliver.
    public func delivered(inSession session: String, row: (String) -> TranscriptEntry?) -> Set<String> {
        Set(
            messages.filter { message in
                guard message.sessionKey == session else { return false }
                let shown = row(message.id)
                return shown?.source == .history || (message.state == .accepted && shown == nil)
            }.map(\.id))
    }

    /// What a session's history page must settle: its acked messages, and those in `including` (an
    /// uncertain one asked about).
    public func awaitingConfirmation(inSession session: String, including ids: Set<String> = []) -> [OutboxMessage] {
        messages.filter { $0.sessionKey == session && ($0.state == .accepted || ids.contains($0.id)) }
    }

    /// Sessions other than `current` with acked messages, to confirm from their own history.
    public func sessionsAwaitingConfirmation(besides current: String) -> [String] {
        Set(messages.filter { $0.state == .accepted && $0.sessionKey != current }.map(\.sessionKey)).sorted()
    }

    // MARK: Inputs

    /// The outbox as stored when the process last ended. A send that was in flight may or may not have
    /// reached the gateway: it becomes ambiguous, its duplicate window counted from that attempt.
    public mutating func restore(_ stored: [OutboxMessage]) {
        messages = stored.map { message in
            guard message.state == .sending else { return message }
            var uncertain = message
            uncertain.state = .ambiguous
            uncertain.uncertainSinceMs = message.uncertainSinceMs ?? message.lastAttemptAtMs ?? message.createdAtMs
            return uncertain
        }
    }

    /// A new message, queued unless the outbox is full: past ``OutboxPolicy/maxPending`` messages
    /// waiting for delivery it enters as failed, with the reason, and is kept for the user. Returns the
    /// message as it entered.
    public mutating func enqueue(_ message: OutboxMessage) -> OutboxMessage {
        var entering = message
        // Only what still waits for delivery counts: an acked message is on the gateway already.
        let pending = messages.count { $0.state.needsDelivery }
        if pending >= policy.maxPending { entering.state = .failed(reason: Self.fullReason(pending: pending)) }
        messages.append(entering)
        return entering
    }

    /// The user asked to send a failed or unconfirmed message again, in place with the same id: its
    /// expiry clock and duplicate window start again (they know an unconfirmed one may arrive twice).
    public mutating func requeue(_ message: OutboxMessage, nowMs: Int) -> OutboxChange {
        var queued = message
        queued.state = .queued
        queued.createdAtMs = nowMs
        queued.uncertainSinceMs = nil
        if let index = messages.firstIndex(where: { $0.id == message.id }) {
            messages[index] = queued
            return .updated(queued)
        }
        messages.append(queued)
        return .added(queued)
    }

    /// The user dropped the message; nil when it was not here.
    public mutating func discard(id: String) -> OutboxChange? {
        guard let index = messages.firstIndex(where: { $0.id == id }) else { return nil }
        return .removed(messages.remove(at: index))
    }

    /// A one-shot command told the person the message was not sent (or may not have been): it leaves
    /// the outbox, so that no later session sends it behind their back (they would send it again and
    /// double it). An accepted message stays: the gateway has it, only its confirmation is left. Nil when
    /// nothing changed.
    public mutating func withdraw(id: String) -> OutboxChange? {
        guard message(id: id)?.state != .accepted else { return nil }
        return discard(id: id)
    }

    /// What to do with `id` now; nil when it no longer waits for delivery (delivered or discarded
    /// meanwhile).
    public func deliveryStep(for id: String, nowMs: Int) -> DeliveryStep? {
        guard let message = message(id: id), message.state.needsDelivery else { return nil }
        return policy.isPastDuplicateWindow(message, nowMs: nowMs) ? .settleFromHistory : .attempt
    }

    /// An attempt starts: from here on the gateway may have the message.
    public mutating func beginAttempt(id: String, nowMs: Int) -> OutboxMessage? {
        update(id) { message in
            message.state = .sending
            message.attempts += 1
            message.lastAttemptAtMs = nowMs
        }
    }

    /// The attempt started at `startedAtMs` ended with `outcome`. Nil when the message left the outbox
    /// meanwhile (the user discarded it).
    mutating func finishAttempt(id: String, outcome: SendAttemptOutcome, startedAtMs: Int) -> OutboxChange? {
        guard let index = messages.firstIndex(where: { $0.id == id }) else { return nil }
        guard let state = outcome.outboxState else { return .removed(messages.remove(at: index)) }
        // Its run's events came first and proved it arrived: a lost or refused answer does not make it
        // undelivered or failed (the reply is streaming).
        if messages[index].state == .accepted { return .updated(messages[index]) }
        messages[index].state = state
        if outcome == .ambiguous, messages[index].uncertainSinceMs == nil {
            messages[index].uncertainSinceMs = startedAtMs
        }
        return .updated(messages[index])
    }

    /// Marks the messages that waited past the policy's expiry as failed (they stay for the user) and
    /// returns them.
    public mutating func expire(nowMs: Int) -> [OutboxMessage] {
        var expired: [OutboxMessage] = []
        for index in messages.indices where policy.hasExpired(messages[index], nowMs: nowMs) {
            messages[index].state = .failed(reason: policy.expiryReason)
            expired.append(messages[index])
        }
        return expired
    }

    /// History does not show a message whose duplicate window has passed: it may or may not have
    /// arrived. Nil when it no longer waits for delivery (history showed it after all).
    public mutating func markUnconfirmed(id: String) -> OutboxMessage? {
        guard message(id: id)?.state.needsDelivery == true else { return nil }
        return update(id) { $0.state = .unconfirmed }
    }

    /// Events of the message's run prove the gateway has it, whatever its attempt said or has yet to
    /// say: it waits only for history's confirmation now, and is never sent again. Nil when it is not
    /// here, already accepted, or was never attempted.
    public mutating func markAccepted(id: String) -> OutboxMessage? {
        // Events for a message never sent prove nothing (they cannot be its run's): it stays to be sent.
        guard let message = message(id: id), message.state != .accepted, message.attempts > 0 else { return nil }
        return update(id) {
            $0.state = .accepted
            $0.uncertainSinceMs = nil
        }
    }

    /// History showed these messages (or their run ended after an ack): they leave the outbox.
    public mutating func confirm(_ ids: Set<String>) -> [OutboxMessage] {
        let confirmed = messages.filter { ids.contains($0.id) }
        messages.removeAll { ids.contains($0.id) }
        return confirmed
    }

    // MARK: Helpers

    private mutating func update(_ id: String, _ change: (inout OutboxMessage) -> Void) -> OutboxMessage? {
        guard let index = messages.firstIndex(where: { $0.id == id }) else { return nil }
        change(&messages[index])
        return messages[index]
    }

    static func fullReason(pending: Int) -> String {
        "\(pending) messages are already waiting to be delivered; this one was not queued. "
            + "Reconnect, or discard some of them."
    }
}
