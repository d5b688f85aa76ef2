import OpenClawChat

/// A search of a store's file through one read-only connection, for a process that only searches
/// (`openclaw-chat search`).
///
/// Opening a ``SQLiteChatStore`` prepares it for writing: a writer connection, WAL mode set, the schema
/// migrated, the outbox journal read. A search needs none of it; over 100,000 messages that preparation
/// cost more than the query. Whatever this path cannot answer, it leaves to the usual open, which
/// recovers a damaged file and migrates an old one.
///
/// A read-only connection cannot checkpoint or delete the WAL, so it leaves what it finds: an empty WAL
/// and its index when the store was closed cleanly (harmless: an empty WAL asks for no check at the next
/// open), or a WAL a lost session left behind, which it reads (every committed message is found) and which
/// the next `chat` or `send` checks and folds in. So damage after a crash is reported by that next open
/// (or here, when the search itself meets it and falls back to the usual open), not by every search.
package enum StoredTranscriptSearch {
    /// How much of the file the search reads through a memory map (`PRAGMA mmap_size`): a fresh
    /// process then reads the index from the kernel's page cache without copying it into SQLite's own
    /// (a phrase in a quarter of 100,000 messages: about 1.5 of 12 ms). A map faults if the file shrinks
    /// beneath it; this store's never does (it does not vacuum, and a checkpoint only writes pages back),
    /// and SQLite maps no further than the size it read when the transaction began. (A disk that fails
    /// to read a mapped page ends the process with SIGBUS rather than an error: a failing disk, where the
    /// usual open would fail too.)
    static let mappedBytes = 1 << 30

    /// The best matches for `query` in the store at `path`, as ``SQLiteChatStore/search(_:gateway:limit:)``
    /// gives them; nil when the file is missing or empty, is not a database, is damaged where the search
    /// read, has a schema this version has not completed, or cannot be opened for reading: then open the
    /// store as usual and search there.
    package static func hits(path: String, query: String, gateway: String?, limit: Int) -> [SearchHit]? {
        guard (StoreFile.size(path) ?? 0) > 0 else { return nil }
        let query = SearchQuery(query)
        guard query.matchExpression != nil, limit > 0 else { return [] }
        do {
            // A writer may hold the file for a moment (the chat beside this), as with the usual open.
            let db = try SQLiteConnection(path: path, mode: .readOnly, busyTimeoutMs: 5000)
            defer { db.close() }
            try db.execute(sql: "PRAGMA mmap_size = \(mappedBytes)")
            return try db.inTransaction(.deferred) { () throws -> [SearchHit]? in
                guard try StoreSchema.migrator.hasCompletedMigrations(db) else { return nil }
                return try query.hits(gateway: gateway, limit: limit, db: db)
            }
        } catch {
            return nil
        }
    }
}
