/// The database schema, as named migrations.
///
/// `SQLiteMigrator` records which migrations ran, so a later version only adds to what is
/// there. Never edit a migration that has shipped: append a new one. Migrations a newer version of
/// the app applied are ignored by an older one, so a downgrade keeps working on the tables it knows.
enum StoreSchema {
    static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.registerMigration("v1.messages", migrate: createMessages)
        migrator.registerMigration("v1.sessions", migrate: createSessions)
        migrator.registerMigration("v1.outbox", migrate: createOutbox)
        migrator.registerMigration("v1.search", migrate: createSearch)
        migrator.registerMigration("v2.outbox-uncertain-since") { db in
            // When an unanswered attempt may first have reached the gateway: the duplicate window's start.
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN uncertain_since_ms INTEGER")
        }
        migrator.registerMigration("v3.outbox-attachments") { db in
            // Names, types and sizes of the files; their bytes are in the spool (`OutboxSpool`).
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN attachments_json TEXT")
        }
        migrator.registerMigration("v4.search-file-names", migrate: indexFileNames)
        return migrator
    }

    /// One row per history message. `position` is a REAL sort key: a message placed between two
    /// others takes a value between theirs, so inserting older messages never rewrites the session
    /// (see ``TranscriptWriter``). `message_json` keeps the whole ``ChatMessage``; the other columns
    /// are what queries need.
    private static func createMessages(_ db: SQLiteConnection) throws {
        try db.execute(
            sql: """
                CREATE TABLE messages (
                    row_id INTEGER PRIMARY KEY,
                    gateway TEXT NOT NULL,
                    session_key TEXT NOT NULL,
                    id TEXT NOT NULL,
                    history_key TEXT NOT NULL,
                    run_id TEXT,
                    role TEXT NOT NULL,
                    text TEXT NOT NULL,
                    timestamp_ms INTEGER,
                    message_json TEXT NOT NULL,
                    tool_timings_json TEXT,
                    position REAL NOT NULL,
                    UNIQUE (gateway, session_key, history_key)
                );
                CREATE INDEX messages_by_position ON messages (gateway, session_key, position);
                """)
    }

    /// When each session was last recorded, for the sessions-per-gateway cap. `recorded_order` is a
    /// counter rather than a clock so that two records in the same millisecond, or a clock set back,
    /// still order correctly.
    private static func createSessions(_ db: SQLiteConnection) throws {
        try db.execute(
            sql: """
                CREATE TABLE sessions (
                    gateway TEXT NOT NULL,
                    session_key TEXT NOT NULL,
                    last_recorded_at_ms INTEGER NOT NULL,
                    recorded_order INTEGER NOT NULL,
                    PRIMARY KEY (gateway, session_key)
                );
                CREATE INDEX sessions_by_recency ON sessions (gateway, recorded_order);
                """)
    }

    /// Unsent messages. `seq` (AUTOINCREMENT, never reused) is the insertion order, the order to
    /// deliver in. `state` is text so the file stays readable and a new state needs no migration.
    private static func createOutbox(_ db: SQLiteConnection) throws {
        try db.execute(
            sql: """
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    gateway TEXT NOT NULL,
                    id TEXT NOT NULL,
                    session_key TEXT NOT NULL,
                    text TEXT NOT NULL,
                    thinking TEXT,
                    created_at_ms INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    failure_reason TEXT,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_attempt_at_ms INTEGER,
                    UNIQUE (gateway, id)
                );
                """)
    }

    /// Full-text index over `messages.text`: an FTS5 external-content table (the text is stored once,
    /// in `messages`), kept in sync by triggers. `unicode61 remove_diacritics 2` folds case and accents
    /// in every script ("cafe" finds "Café"); `porter` on top stems English ("running" finds "runs").
    /// The update trigger fires only when `text` changes, so moving a row (its position) is free.
    private static func createSearch(_ db: SQLiteConnection) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE messages_fts USING fts5(
                    text,
                    content = 'messages',
                    content_rowid = 'row_id',
                    tokenize = 'porter unicode61 remove_diacritics 2'
                );
                CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
                    INSERT INTO messages_fts (rowid, text) VALUES (new.row_id, new.text);
                END;
                CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
                    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.row_id, old.text);
                END;
                CREATE TRIGGER messages_fts_after_update AFTER UPDATE OF text ON messages BEGIN
                    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.row_id, old.text);
                    INSERT INTO messages_fts (rowid, text) VALUES (new.row_id, new.text);
                END;
                INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
                """)
    }

    /// Search finds messages by the names of their files: a `file_names` column (space-separated, filled
    /// from each stored message's image and file parts) indexed beside `text`. FTS5 cannot add a column
    /// to an index, so the index and its triggers are made again over both columns and rebuilt once.
    private static func indexFileNames(_ db: SQLiteConnection) throws {
        try db.execute(
            sql: """
                ALTER TABLE messages ADD COLUMN file_names TEXT NOT NULL DEFAULT '';
                DROP TRIGGER messages_fts_after_insert;
                DROP TRIGGER messages_fts_after_delete;
                DROP TRIGGER messages_fts_after_update;
                DROP TABLE messages_fts;
                """)
        // Only messages that name a file can have any: most rows are not even parsed.
        let rows = try db.rows(
            sql: "SELECT row_id, message_json FROM messages WHERE message_json LIKE '%\"fileName\"%'")
        for row in rows {
            let json: String = row["message_json"] ?? ""
            let names = MessageRecord.fileNames(json: json)
            guard !names.isEmpty else { continue }
            let rowID: Int64 = row["row_id"] ?? 0
            try db.execute(sql: "UPDATE messages SET file_names = ? WHERE row_id = ?", arguments: [names, rowID])
        }
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE messages_fts USING fts5(
                    text,
                    file_names,
                    content = 'messages',
                    content_rowid = 'row_id',
                    tokenize = 'porter unicode61 remove_diacritics 2'
                );
                CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
                    INSERT INTO messages_fts (rowid, text, file_names) VALUES (new.row_id, new.text, new.file_names);
                END;
                CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
                    INSERT INTO messages_fts (messages_fts, rowid, text, file_names)
                    VALUES ('delete', old.row_id, old.text, old.file_names);
                END;
                CREATE TRIGGER messages_fts_after_update AFTER UPDATE OF text, file_names ON messages BEGIN
                    INSERT INTO messages_fts (messages_fts, rowid, text, file_names)
                    VALUES ('delete', old.row_id, old.text, old.file_names);
                    INSERT INTO messages_fts (rowid, text, file_names) VALUES (new.row_id, new.text, new.file_names);
                END;
                INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
                """)
    }
}
