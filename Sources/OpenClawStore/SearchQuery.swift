import OpenClawChat
import OpenClawProtocol

/// Full-text search over stored messages: the user's free text turned into a safe FTS5 query, and
/// the ranked query with snippets.
///
/// FTS5 has its own query language (`AND`, `OR`, `NOT`, `NEAR`, `"…"`, `*`, `^`, column filters,
/// parentheses), so passing user text straight to `MATCH` makes `"`, `(` or a trailing `-` a syntax
/// error and `AND` an operator. Instead the text is split into words the way the `unicode61`
/// tokenizer splits it (runs of letters and digits), each word is quoted as a string, and the words
/// are joined with spaces, which FTS5 reads as AND. The last word is a prefix (`"wor"*`) unless the
/// text ends with a space, so results follow the user while they type.
struct SearchQuery: Equatable {
    /// The FTS5 `MATCH` expression; nil when the text has no word to search for.
    let matchExpression: String?
    /// The last word is a prefix (`"wor"*`): FTS5 merges the lists of every word it starts, again for
    /// each evaluation of the expression. Words are quoted, so only that `*` can end the expression.
    var endsWithPrefix: Bool { matchExpression?.hasSuffix("*") ?? false }

    init(_ text: String) {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber || character.isCombiningMark {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard !words.isEmpty else {
            matchExpression = nil
            return
        }
        let prefixLast = text.last.map { !$0.isWhitespace } ?? false
        matchExpression = words.enumerated().map { offset, word in
            // Words hold no quote; doubling any anyway keeps the string literal closed whatever changes.
            let quoted =
                "\"" + word.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
            return prefixLast && offset == words.count - 1 ? quoted + "*" : quoted
        }.joined(separator: " ")
    }

    /// Matches past which relevance ranking gives way to recency (``hits(gateway:limit:db:)``).
    static let broadMatchCount = 1_000

    /// Matches up to which snippets are made for every match rather than for the rows shown only.
    static let snippetEveryMatchCount = 250

    /// Best match first (bm25, then newest); `gateway` nil searches every gateway. A query that matches
    /// more than ``broadMatchCount`` messages (a common word or phrase) lists the most recently stored
    /// first instead: bm25 must score every match, about 100 ms for 25,000 of 100,000 messages, while
    /// the index yields its newest rows at once — and among thousands of equal hits the recent ones are
    /// what a person looks for. Counting stops at the threshold, so deciding costs about a millisecond.
    ///
    /// `snippet()` is the expensive part (it re-tokenizes the message). In one query it runs for every
    /// row the query produces: when the index yields rows newest first (broad queries) the `LIMIT` stops
    /// it after the rows shown; when bm25 must rank every match first it runs for each match, which is
    /// cheap for a few hundred. Past that, ranking comes first and the snippets are made for the winners
    /// only, each looked up again by rowid within the same `MATCH` (which `snippet()` needs) — but every
    /// such lookup evaluates the expression again, and a prefix word (the last word, as typed) makes
    /// each evaluation merge every word it starts: 50 lookups took 43 ms where one query took 1.5 ms
    /// (100,000 messages, `cache invalidation`). So the winners are looked up again only for a ranked
    /// query of many matches without a prefix word.
    func hits(gateway: String?, limit: Int, db: SQLiteConnection) throws -> [SearchHit] {
        guard let matchExpression, limit > 0 else { return [] }
        let matches = try Self.countMatches(matchExpression, gateway: gateway, db: db)
        guard matches > 0 else { return [] }
        let broad = matches > Self.broadMatchCount
        // Rows are numbered as they are recorded: the highest rowids are the latest recorded (a page of
        // older messages loaded later counts as recent; among thousands of hits that is acceptable).
        let score = broad ? "0" : "bm25(messages_fts)"
        let order = broad ? "messages_fts.rowid DESC" : "score, m.timestamp_ms DESC"
        var arguments: SQLiteArguments = [matchExpression]
        var gatewayFilter = ""
        if let gateway {
            gatewayFilter = "AND m.gateway = ?"
            arguments += [gateway]
        }
        arguments += [limit]
        let snippet = "snippet(messages_fts, -1, char(57344), char(57345), '…', 16) AS snippet"
        let sql: String
        if broad || matches <= Self.snippetEveryMatchCount || endsWithPrefix {
            sql = """
                SELECT m.gateway, m.session_key, m.id, m.role, m.timestamp_ms, \(snippet), \(score) AS score
                FROM messages_fts JOIN messages AS m ON m.row_id = messages_fts.rowid
                WHERE messages_fts MATCH ? \(gatewayFilter)
                ORDER BY \(order)
                LIMIT ?
                """
        } else {
            arguments += [matchExpression]
            sql = """
                WITH best AS (
                    SELECT messages_fts.rowid AS rid, \(score) AS score, m.timestamp_ms AS ts
                    FROM messages_fts JOIN messages AS m ON m.row_id = messages_fts.rowid
                    WHERE messages_fts MATCH ? \(gatewayFilter)
                    ORDER BY score, ts DESC
                    LIMIT ?
                )
                SELECT m.gateway, m.session_key, m.id, m.role, m.timestamp_ms, \(snippet)
                FROM best
                CROSS JOIN messages_fts ON messages_fts.rowid = best.rid
                CROSS JOIN messages AS m ON m.row_id = best.rid
                WHERE messages_fts MATCH ?
                ORDER BY best.score, best.ts DESC
                """
        }
        let rows = try db.rows(sql: sql, arguments: arguments)
        return rows.map { row in
            SearchHit(
                gateway: row["gateway"] ?? "",
                sessionKey: row["session_key"] ?? "",
                messageId: row["id"] ?? "",
                role: ChatRole(wireValue: row["role"] ?? ""),
                parts: Self.parts(ofSnippet: row["snippet"] ?? ""),
                timestampMs: row["timestamp_ms"]
            )
        }
    }

    /// How many messages of `gateway` (nil: any) match, counting no further than one past
    /// ``broadMatchCount``.
    ///
    /// Counted in the index alone where that is the same number: joining each match to its message (for
    /// its gateway) reads a table row per match: for a phrase in a quarter of 100,000 messages, the count
    /// took 7.5 ms in a fresh process with the join and 3 without. The index's count is the same number
    /// for every gateway (`gateway` nil) and for a store that holds no other gateway's messages.
    private static func countMatches(_ expression: String, gateway: String?, db: SQLiteConnection) throws -> Int {
        let inIndex =
            try db.scalar(
                Int.self,
                sql: """
                    SELECT count(*) FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)
                    """,
                arguments: [expression, broadMatchCount + 1]) ?? 0
        guard let gateway, inIndex > 0, try holdsAnotherGateway(than: gateway, db: db) else { return inIndex }
        return try db.scalar(
            Int.self,
            sql: """
                SELECT count(*) FROM (
                    SELECT 1 FROM messages_fts CROSS JOIN messages AS m ON m.row_id = messages_fts.rowid
                    WHERE messages_fts MATCH ? AND m.gateway = ? LIMIT ?)
                """,
            arguments: [expression, gateway, broadMatchCount + 1]) ?? 0
    }

    /// Whether a message of a gateway other than `gateway` is stored (or none of it is): the lowest and
    /// the highest gateway name, each one step down the `(gateway, …)` index, compared byte for byte as
    /// SQLite compares them.
    private static func holdsAnotherGateway(than gateway: String, db: SQLiteConnection) throws -> Bool {
        let lowest = try db.scalar(String.self, sql: "SELECT min(gateway) FROM messages")
        let highest = try db.scalar(String.self, sql: "SELECT max(gateway) FROM messages")
        let name = Array(gateway.utf8)
        return lowest.map { Array($0.utf8) } != name || highest.map { Array($0.utf8) } != name
    }
}

extension SearchQuery {
    /// `snippet()` marks each match between U+E000 and U+E001 (private-use characters, not the brackets a
    /// message may contain); the passage split there.
    static func parts(ofSnippet snippet: String) -> [SearchHit.Part] {
        var parts: [SearchHit.Part] = []
        var current = ""
        var inMatch = false
        for character in snippet {
            guard character == "\u{E000}" || character == "\u{E001}" else {
                current.append(character)
                continue
            }
            if !current.isEmpty { parts.append(SearchHit.Part(text: current, isMatch: inMatch)) }
            current = ""
            inMatch = character == "\u{E000}"
        }
        if !current.isEmpty { parts.append(SearchHit.Part(text: current, isMatch: inMatch)) }
        return parts
    }
}

extension Character {
    /// Accents typed as separate combining characters stay part of their word, as in `unicode61`.
    fileprivate var isCombiningMark: Bool {
        unicodeScalars.allSatisfy { $0.properties.generalCategory == .nonspacingMark }
    }
}
