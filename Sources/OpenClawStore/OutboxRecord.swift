import GRDB
import OpenClawChat

/// An ``OutboxMessage`` as the columns of an `outbox` row.
enum OutboxRecord {
    /// The columns ``message(row:)`` reads, in a `SELECT`.
    static let selection = salvageSelection + ", uncertain_since_ms"
    /// The columns every version of the table has (`v1.outbox`), for reading a damaged file of any age.
    static let salvageSelection = """
        gateway, id, session_key, text, thinking, created_at_ms, state, failure_reason, attempts, \
        last_attempt_at_ms
        """
    /// One `?` per ``selection`` column.
    static let placeholders = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"

    static func message(row: Row) -> OutboxMessage {
        OutboxMessage(
            id: row["id"] ?? "",
            gateway: row["gateway"] ?? "",
            sessionKey: row["session_key"] ?? "",
            text: row["text"] ?? "",
            thinking: row["thinking"],
            createdAtMs: row["created_at_ms"] ?? 0,
            state: state(text: row["state"] ?? "", reason: row["failure_reason"]),
            attempts: row["attempts"] ?? 0,
            lastAttemptAtMs: row["last_attempt_at_ms"],
            uncertainSinceMs: row.hasColumn("uncertain_since_ms") ? row["uncertain_since_ms"] : nil
        )
    }

    /// Every outbox row, in delivery order.
    static func all(_ db: Database) throws -> [OutboxMessage] {
        try Row.fetchAll(db, sql: "SELECT \(selection) FROM outbox ORDER BY seq").map(message(row:))
    }

    /// How many messages the outbox holds.
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox") ?? 0
    }

    /// The values for the ``selection`` columns, in order.
    static func arguments(_ message: OutboxMessage) -> StatementArguments {
        let (state, reason) = columns(message.state)
        return [
            message.gateway, message.id, message.sessionKey, message.text, message.thinking, message.createdAtMs,
            state, reason, message.attempts, message.lastAttemptAtMs, message.uncertainSinceMs,
        ]
    }

    static func columns(_ state: OutboxState) -> (state: String, reason: String?) {
        switch state {
        case .queued: ("queued", nil)
        case .sending: ("sending", nil)
        case .ambiguous: ("ambiguous", nil)
        case .accepted: ("accepted", nil)
        case .failed(let reason): ("failed", reason)
        case .unconfirmed: ("unconfirmed", nil)
        }
    }

    /// A state this version does not know (written by a newer one) reads as failed: the message is
    /// kept and shown, but never resent without the user, which is the safe side of not knowing.
    static func state(text: String, reason: String?) -> OutboxState {
        switch text {
        case "queued": .queued
        case "sending": .sending
        case "ambiguous": .ambiguous
        case "accepted": .accepted
        case "failed": .failed(reason: reason ?? "")
        case "unconfirmed": .unconfirmed
        default: .failed(reason: reason ?? "unknown outbox state “\(text)”")
        }
    }
}
