import OpenClawChat
import OpenClawProtocol

/// A ``StoredMessage`` as the columns of a `messages` row.
///
/// The message itself is kept whole as JSON (the wire shape, see `ChatMessage.json`), so fields added
/// to ``ChatMessage`` later need no migration; `role`, `text` and `timestamp_ms` are copies that
/// search and listing read without parsing JSON.
struct MessageRecord: Equatable {
    /// The columns ``init(row:)`` reads, in a `SELECT`.
    static let selection =
        "id, history_key, run_id, role, text, timestamp_ms, message_json, tool_timings_json, file_names"

    var id: String
    var historyKey: String
    var runId: String?
    var role: String
    var text: String
    var timestampMs: Int?
    var messageJSON: String
    var toolTimingsJSON: String?
    /// The names of the message's files, space-separated: what search finds besides the text.
    var fileNames: String

    init(_ stored: StoredMessage) {
        id = stored.id
        historyKey = stored.historyKey
        runId = stored.runId
        role = stored.message.role.wireValue
        text = stored.message.text
        timestampMs = stored.message.timestampMs
        messageJSON = JSONSerializer.string(stored.message.json)
        toolTimingsJSON = stored.toolTimings.isEmpty ? nil : JSONSerializer.string(Self.json(stored.toolTimings))
        fileNames = stored.message.mediaFileNames.joined(separator: " ")
    }

    /// Reads the ``selection`` columns. A NULL where the schema forbids one (a damaged row) reads as
    /// empty rather than failing the read.
    init(row: SQLiteRow) {
        id = row["id"] ?? ""
        historyKey = row["history_key"] ?? ""
        runId = row["run_id"]
        role = row["role"] ?? ""
        text = row["text"] ?? ""
        timestampMs = row["timestamp_ms"]
        messageJSON = row["message_json"] ?? ""
        toolTimingsJSON = row["tool_timings_json"]
        fileNames = row["file_names"] ?? ""
    }

    /// The values of the columns after `row_id`, in ``selection`` order.
    var arguments: SQLiteArguments {
        [id, historyKey, runId, role, text, timestampMs, messageJSON, toolTimingsJSON, fileNames]
    }

    /// The stored message. JSON that does not parse (written by hand, or damaged) degrades to a
    /// text message built from the columns instead of failing the whole read.
    var storedMessage: StoredMessage {
        let parsed = try? JSONParser().parse(messageJSON)
        let message =
            ChatMessage(json: parsed)
            ?? ChatMessage(
                role: ChatRole(wireValue: role), content: text.isEmpty ? [] : [.text(text)], timestampMs: timestampMs)
        let timings = toolTimingsJSON.flatMap { try? JSONParser().parse($0) }.map(Self.toolTimings) ?? [:]
        return StoredMessage(id: id, historyKey: historyKey, runId: runId, message: message, toolTimings: timings)
    }

    /// The `file_names` of a stored message's JSON (for rows written before the column existed).
    static func fileNames(json: String) -> String {
        guard let message = ChatMessage(json: try? JSONParser().parse(json)) else { return "" }
        return message.mediaFileNames.joined(separator: " ")
    }

    static func json(_ timings: [String: StoredToolTiming]) -> JSONValue {
        .object(
            timings.mapValues { timing in
                .object(dropping: [
                    ("startedAtMs", .int(timing.startedAtMs)), ("endedAtMs", .int(timing.endedAtMs)),
                    ("isError", .bool(timing.isError)),
                ])
            })
    }

    static func toolTimings(_ json: JSONValue) -> [String: StoredToolTiming] {
        (json.objectValue ?? [:]).mapValues { timing in
            StoredToolTiming(
                startedAtMs: timing["startedAtMs"]?.intValue, endedAtMs: timing["endedAtMs"]?.intValue,
                isError: timing["isError"]?.boolValue)
        }
    }
}
