import OpenClawChat
import OpenClawProtocol

/// An ``OutboxMessage`` as the columns of an `outbox` row.
enum OutboxRecord {
    /// The columns ``message(row:)`` reads, in a `SELECT`.
    static let selection = salvageSelection + ", uncertain_since_ms, attachments_json"
    /// The columns every version of the table has (`v1.outbox`), for reading a damaged file of any age.
    static let salvageSelection = """
        gateway, id, session_key, text, thinking, created_at_ms, state, failure_reason, attempts, \
        last_attempt_at_ms
        """
    /// One `?` per ``selection`` column.
    static let placeholders = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"

    /// The message of a row; its attachments' bytes are the copies in `spool`. A message whose copies
    /// are not all there (or, from a damaged file's old columns, whose attachments cannot be known while
    /// its folder shows it had some) reads as failed: it is shown and can be discarded, never sent
    /// without its files.
    static func message(row: SQLiteRow, spool: OutboxSpool) -> OutboxMessage {
        var message = OutboxMessage(
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
        let key = OutboxSpool.Key(gateway: message.gateway, id: message.id)
        if row.hasColumn("attachments_json") {
            let json: String? = row["attachments_json"]
            message.attachments = attachments(json: json.flatMap { try? JSONParser().parse($0) }, of: key, spool: spool)
        } else if StoreFile.exists(spool.folder(key)) {
            // A damaged file's old columns: it had files, which ones is lost. A stand-in that can never be
            // read keeps it from being sent (or retried) as text alone; it stays failed, for discarding.
            message.attachments = [
                spool.attachment(
                    key, index: 0, fileName: "its files", mimeType: MediaType.octetStream.mimeType, size: -1)
            ]
        }
        if let missing = spool.missingFile(of: message) {
            message.state = .failed(reason: "its attachment “\(missing)” is missing")
        }
        return message
    }

    /// `[{"fileName", "mimeType", "size"}]`: what an outbox row and a journal record keep of the files.
    static func json(_ attachments: [Attachment]) -> JSONValue? {
        guard !attachments.isEmpty else { return nil }
        return .array(
            attachments.map { attachment in
                .object([
                    "fileName": .string(attachment.fileName), "mimeType": .string(attachment.mediaType.mimeType),
                    "size": .int(attachment.size),
                ])
            })
    }

    static func attachments(json: JSONValue?, of key: OutboxSpool.Key, spool: OutboxSpool) -> [Attachment] {
        (json?.arrayValue ?? []).enumerated().map { index, item in
            spool.attachment(
                key, index: index, fileName: item["fileName"]?.stringValue ?? "file \(index + 1)",
                mimeType: item["mimeType"]?.stringValue ?? MediaType.octetStream.mimeType,
                size: item["size"]?.intValue ?? -1)
        }
    }

    /// Whether `key` is in the outbox, and the bytes of files every other message there holds: read from
    /// the rows' `attachments_json`, without parsing whole messages or touching the files.
    static func attachmentBytes(
        _ db: SQLiteConnection, besides key: OutboxSpool.Key
    ) throws -> (isQueued: Bool, held: Int) {
        var isQueued = false
        var held = 0
        for row in try db.rows(sql: "SELECT gateway, id, attachments_json FROM outbox") {
            let gateway: String? = row["gateway"]
            let id: String? = row["id"]
            if gateway == key.gateway, id == key.id {
                isQueued = true
                continue
            }
            let json: String? = row["attachments_json"]
            let items = json.flatMap { try? JSONParser().parse($0) }?.arrayValue ?? []
            held += items.reduce(0) { $0 + max(0, $1["size"]?.intValue ?? 0) }
        }
        return (isQueued, held)
    }

    /// Every outbox row, in delivery order.
    static func all(_ db: SQLiteConnection, spool: OutboxSpool) throws -> [OutboxMessage] {
        try db.rows(sql: "SELECT \(selection) FROM outbox ORDER BY seq").map { message(row: $0, spool: spool) }
    }

    /// How many messages the outbox holds.
    static func count(_ db: SQLiteConnection) throws -> Int {
        try db.scalar(Int.self, sql: "SELECT count(*) FROM outbox") ?? 0
    }

    /// The values for the ``selection`` columns, in order.
    static func arguments(_ message: OutboxMessage) -> SQLiteArguments {
        let (state, reason) = columns(message.state)
        return [
            message.gateway, message.id, message.sessionKey, message.text, message.thinking, message.createdAtMs,
            state, reason, message.attempts, message.lastAttemptAtMs, message.uncertainSinceMs,
            json(message.attachments).map(JSONSerializer.string),
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
