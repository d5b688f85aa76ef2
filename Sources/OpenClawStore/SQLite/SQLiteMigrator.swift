/// Named schema migrations, applied once each, in the order they were registered.
///
/// Which ran is recorded in the table `grdb_migrations` (one `identifier` per row): the name and
/// shape GRDB's migrator used, which wrote the stores already on disk, so those open without a
/// migration of their own. Each migration runs in its own immediate transaction with its record, so a
/// failed one leaves nothing behind. Identifiers the list does not know (a newer version's) are left
/// alone: an older version keeps working on the tables it knows.
struct SQLiteMigrator {
    private struct Migration {
        let identifier: String
        let migrate: (SQLiteConnection) throws -> Void
    }

    private var migrations: [Migration] = []

    mutating func registerMigration(_ identifier: String, migrate: @escaping (SQLiteConnection) throws -> Void) {
        migrations.append(Migration(identifier: identifier, migrate: migrate))
    }

    /// Applies the migrations not yet applied, up to and including `target` (all when nil).
    func migrate(_ db: SQLiteConnection, upTo target: String? = nil) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = try appliedIdentifiers(db)
        for migration in migrations {
            if !applied.contains(migration.identifier) {
                try db.inTransaction(.immediate) {
                    try migration.migrate(db)
                    try db.execute(
                        sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
                }
            }
            if migration.identifier == target { return }
        }
    }

    /// Whether every registered migration has been applied (a database this version can use as it is).
    func hasCompletedMigrations(_ db: SQLiteConnection) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        return migrations.allSatisfy { applied.contains($0.identifier) }
    }

    /// The identifiers recorded as applied, known or not; none when the table does not exist yet.
    func appliedIdentifiers(_ db: SQLiteConnection) throws -> Set<String> {
        let tables = try db.scalar(
            Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'")
        guard tables ?? 0 > 0 else { return [] }
        return Set(try db.column(String.self, sql: "SELECT identifier FROM grdb_migrations"))
    }
}
