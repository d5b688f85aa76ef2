import OpenClawChat
import OpenClawProtocol

/// The JSON of an ``OutboxJournal`` record: `{"op": "put" | "remove" | "snapshot", "count": N, …}`.
///
/// JSON so the file can be read (and repaired) by hand; the outbox state is written as the same text
/// the `outbox` table uses, and read back by the same rules (an unknown state reads as failed).
enum OutboxJournalCoding {
    static func json(_ entry: OutboxJournal.Entry, count: Int) -> [UInt8] {
        switch entry {
        case .put(let message):
            let (state, reason) = OutboxRecord.columns(message.state)
            return JSONSerializer.bytes(
                .object(dropping: [
                    ("op", "put"), ("count", .int(count)), ("gateway", .string(message.gateway)),
                    ("id", .string(message.id)), ("sessionKey", .string(message.sessionKey)),
                    ("text", .string(message.text)), ("thinking", .string(message.thinking)),
                    ("createdAtMs", .int(message.createdAtMs)), ("state", .string(state)),
                    ("failureReason", .string(reason)), ("attempts", .int(message.attempts)),
                    ("lastAttemptAtMs", .int(message.lastAttemptAtMs)),
                    ("uncertainSinceMs", .int(message.uncertainSinceMs)),
                    ("attachments", OutboxRecord.json(message.attachments)),
                ]))
        case .remove(let gateway, let id):
            return JSONSerializer.bytes(
                .object(dropping: [
                    ("op", "remove"), ("count", .int(count)), ("gateway", .string(gateway)), ("id", .string(id)),
                ]))
        }
    }

    /// The first record of a compacted journal: what follows is the whole outbox.
    static func snapshotHeader(count: Int) -> [UInt8] {
        JSONSerializer.bytes(.object(dropping: [("op", "snapshot"), ("count", .int(count))]))
    }

    /// The entry (nil for a snapshot header) and the count after it; nil when the JSON is not a record.
    static func parse(_ json: some Collection<UInt8>, spool: OutboxSpool) -> (OutboxJournal.Entry?, Int)? {
        guard let value = try? JSONParser().parse(json), let count = value["count"]?.intValue else { return nil }
        switch value["op"]?.stringValue {
        case "snapshot":
            return (nil, count)
        case "remove":
            guard let gateway = value["gateway"]?.stringValue, let id = value["id"]?.stringValue else { return nil }
            return (.remove(gateway: gateway, id: id), count)
        case "put":
            guard let gateway = value["gateway"]?.stringValue, let id = value["id"]?.stringValue,
                let sessionKey = value["sessionKey"]?.stringValue, let text = value["text"]?.stringValue,
                let createdAtMs = value["createdAtMs"]?.intValue
            else { return nil }
            var message = OutboxMessage(
                id: id, gateway: gateway, sessionKey: sessionKey, text: text,
                thinking: value["thinking"]?.stringValue, createdAtMs: createdAtMs,
                state: OutboxRecord.state(
                    text: value["state"]?.stringValue ?? "", reason: value["failureReason"]?.stringValue),
                attempts: value["attempts"]?.intValue ?? 0, lastAttemptAtMs: value["lastAttemptAtMs"]?.intValue,
                uncertainSinceMs: value["uncertainSinceMs"]?.intValue)
            message.attachments = OutboxRecord.attachments(
                json: value["attachments"], of: OutboxSpool.Key(gateway: gateway, id: id), spool: spool)
            return (.put(message), count)
        default:
            return nil
        }
    }
}
