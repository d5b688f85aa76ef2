import OpenClawChat

/// Writes history pages into the `messages` table with the ordering of ``ChatStore/record(_:gateway:sessionKey:)``
/// and enforces ``ChatStoreLimits``. Every function runs inside the caller's write transaction.
///
/// Order is a REAL `position` per row. A new message takes a value between its neighbours, so
/// prepending an older page or filling a gap touches only the new rows. A run of `k` new messages
/// between two neighbours is spread evenly over the gap (not halved each time), which leaves room
/// for about 50 further nested inserts; when a gap is too narrow for a double to split it, the
/// session is renumbered 1, 2, 3 … once and the insert proceeds.
enum TranscriptWriter {
    /// Where the next new message of a page goes.
    private enum Cursor {
        /// After everything stored: nothing of the page was known.
        case end
        /// Just before this row (the first stored message of the page) and after whatever precedes it.
        case before(rowID: Int64)
        /// Just after this row (the page's previous message) and before whatever follows it.
        case after(rowID: Int64)
    }

    private struct Gap {
        var low: Double?
        var high: Double?
    }

    struct Session: Hashable {
        var gateway: String
        var sessionKey: String
    }

    /// Records a page; a message that `recorded` says its row already holds is not written again.
    static func record(
        _ messages: [StoredMessage], in session: Session, db: SQLiteConnection, recorded: RecordedMessages
    ) throws {
        var known = try rowIDs(forKeys: messages.map(\.historyKey), in: session, db: db)
        var cursor = messages.lazy.compactMap { known[$0.historyKey] }.first.map { Cursor.before(rowID: $0) } ?? .end
        var remainingInRun = 0
        let held = recorded.rows(in: session)
        var written: [String: RecordedMessages.Row] = [:]
        for (index, message) in messages.enumerated() {
            let key = message.historyKey
            if let rowID = known[key] {
                let row = RecordedMessages.Row(rowID: rowID, message: message)
                // A key seen earlier in this page was written over since: its row is written again.
                if held[key] != row || written[key] != nil {
                    try update(rowID: rowID, with: MessageRecord(message), db: db)
                }
                written[key] = row
                cursor = .after(rowID: rowID)
                remainingInRun = 0
                continue
            }
            if remainingInRun == 0 {
                remainingInRun = messages[index...].prefix { known[$0.historyKey] == nil }.count
            }
            let position = try newPosition(at: cursor, runLength: remainingInRun, in: session, db: db)
            let rowID = try insert(MessageRecord(message), at: position, in: session, db: db)
            known[key] = rowID
            written[key] = RecordedMessages.Row(rowID: rowID, message: message)
            cursor = .after(rowID: rowID)
            remainingInRun -= 1
        }
        db.afterCommit { recorded.remember(written, in: session) }
    }

    /// Marks the session as just recorded, then drops the oldest messages of the session beyond
    /// `maxMessagesPerSession` and the least recently recorded sessions of the gateway beyond
    /// `maxSessionsPerGateway`, with their messages. The outbox is never touched: it holds what the
    /// user wrote and the gateway may not have.
    static func touchAndEnforce(_ limits: ChatStoreLimits, session: Session, nowMs: Int, db: SQLiteConnection) throws {
        try db.execute(
            sql: """
                INSERT INTO sessions (gateway, session_key, last_recorded_at_ms, recorded_order)
                VALUES (?, ?, ?, (SELECT coalesce(max(recorded_order), 0) + 1 FROM sessions))
                ON CONFLICT (gateway, session_key) DO UPDATE SET
                    last_recorded_at_ms = excluded.last_recorded_at_ms, recorded_order = excluded.recorded_order
                """,
            arguments: [session.gateway, session.sessionKey, nowMs])
        try db.execute(
            sql: """
                DELETE FROM messages WHERE row_id IN (
                    SELECT row_id FROM messages WHERE gateway = ? AND session_key = ?
                    ORDER BY position DESC LIMIT -1 OFFSET ?)
                """,
            arguments: [session.gateway, session.sessionKey, max(0, limits.maxMessagesPerSession)])
        let evicted = try db.column(
            String.self,
            sql: """
                SELECT session_key FROM sessions WHERE gateway = ?
                ORDER BY recorded_order DESC LIMIT -1 OFFSET ?
                """,
            arguments: [session.gateway, max(0, limits.maxSessionsPerGateway)])
        for sessionKey in evicted {
            try db.execute(
                sql: "DELETE FROM messages WHERE gateway = ? AND session_key = ?",
                arguments: [session.gateway, sessionKey])
            try db.execute(
                sql: "DELETE FROM sessions WHERE gateway = ? AND session_key = ?",
                arguments: [session.gateway, sessionKey])
        }
    }

    /// Row ids of the stored messages with these history keys (in chunks, under SQLite's limit on
    /// bound parameters).
    private static func rowIDs(
        forKeys keys: [String], in session: Session, db: SQLiteConnection
    ) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        let unique = Array(Set(keys))
        for start in stride(from: 0, to: unique.count, by: 500) {
            let chunk = unique[start..<min(start + 500, unique.count)]
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let arguments: SQLiteArguments =
                [session.gateway, session.sessionKey] + chunk.map { $0 as any SQLiteBindable }
            let rows = try db.rows(
                sql: """
                    SELECT history_key, row_id FROM messages
                    WHERE gateway = ? AND session_key = ? AND history_key IN (\(placeholders))
                    """,
                arguments: arguments)
            for row in rows {
                if let key: String = row["history_key"], let rowID: Int64 = row["row_id"] { result[key] = rowID }
            }
        }
        return result
    }

    /// Rewrites a stored message in place (its position is kept). Skipped when nothing changed, so
    /// re-recording the same page does not churn the search index.
    private static func update(rowID: Int64, with record: MessageRecord, db: SQLiteConnection) throws {
        let statement = try db.cachedStatement(
            sql: """
                UPDATE messages SET id = ?, history_key = ?, run_id = ?, role = ?, text = ?, timestamp_ms = ?,
                    message_json = ?, tool_timings_json = ?, file_names = ?
                WHERE row_id = ? AND NOT (id IS ? AND history_key IS ? AND run_id IS ? AND role IS ? AND text IS ?
                    AND timestamp_ms IS ? AND message_json IS ? AND tool_timings_json IS ? AND file_names IS ?)
                """)
        try statement.execute(record.arguments + [rowID] + record.arguments)
    }

    private static func insert(
        _ record: MessageRecord, at position: Double, in session: Session, db: SQLiteConnection
    ) throws
        -> Int64
    {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO messages (gateway, session_key, \(MessageRecord.selection), position)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        try statement.execute([session.gateway, session.sessionKey] + record.arguments + [position])
        return db.lastInsertedRowID
    }

    /// A position strictly inside the cursor's gap, leaving room for the `runLength - 1` new messages
    /// that follow this one in the same gap.
    private static func newPosition(
        at cursor: Cursor, runLength: Int, in session: Session, db: SQLiteConnection
    ) throws
        -> Double
    {
        let slots = Double(max(1, runLength))
        for attempt in 0..<2 {
            let gap = try self.gap(at: cursor, in: session, db: db)
            let candidate: Double
            switch (gap.low, gap.high) {
            case (nil, nil): candidate = 0
            case (let low?, nil): candidate = low + 1
            case (nil, let high?): candidate = high - slots
            case (let low?, let high?): candidate = low + (high - low) / (slots + 1)
            }
            if (gap.low.map { candidate > $0 } ?? true) && (gap.high.map { candidate < $0 } ?? true) {
                return candidate
            }
            if attempt == 0 { try renumber(session, db: db) }
        }
        throw SQLiteError(code: SQLiteResultCode.internalError.rawValue, message: "no room for a message position")
    }

    private static func gap(at cursor: Cursor, in session: Session, db: SQLiteConnection) throws -> Gap {
        let scope: SQLiteArguments = [session.gateway, session.sessionKey]
        let fromSession = "FROM messages WHERE gateway = ? AND session_key = ?"
        switch cursor {
        case .end:
            let last = try db.cachedStatement(sql: "SELECT max(position) \(fromSession)")
            return Gap(low: try last.scalar(Double.self, scope), high: nil)
        case .before(let rowID):
            let high = try position(of: rowID, db: db)
            let below = try db.cachedStatement(sql: "SELECT max(position) \(fromSession) AND position < ?")
            return Gap(low: try below.scalar(Double.self, scope + [high]), high: high)
        case .after(let rowID):
            let low = try position(of: rowID, db: db)
            let above = try db.cachedStatement(sql: "SELECT min(position) \(fromSession) AND position > ?")
            return Gap(low: low, high: try above.scalar(Double.self, scope + [low]))
        }
    }

    private static func position(of rowID: Int64, db: SQLiteConnection) throws -> Double {
        let statement = try db.cachedStatement(sql: "SELECT position FROM messages WHERE row_id = ?")
        guard let position = try statement.scalar(Double.self, [rowID]) else {
            throw SQLiteError(code: SQLiteResultCode.internalError.rawValue, message: "message row \(rowID) vanished")
        }
        return position
    }

    /// Gives the session's messages the positions 1, 2, 3 … in their current order.
    private static func renumber(_ session: Session, db: SQLiteConnection) throws {
        try db.execute(
            sql: """
                UPDATE messages SET position = ranked.n
                FROM (SELECT row_id AS rid, row_number() OVER (ORDER BY position, row_id) AS n
                      FROM messages WHERE gateway = ? AND session_key = ?) AS ranked
                WHERE messages.row_id = ranked.rid
                """,
            arguments: [session.gateway, session.sessionKey])
    }
}
