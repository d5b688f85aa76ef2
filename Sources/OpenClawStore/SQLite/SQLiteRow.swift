/// One result row: its values, read by column name.
struct SQLiteRow: Sendable {
    let names: [String]
    let values: [SQLiteValue]

    /// The value of the column `name` as `T`; nil when the row has no such column, it is NULL, or it
    /// does not convert (see `SQLiteColumnDecodable`).
    subscript<T: SQLiteColumnDecodable>(_ name: String) -> T? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return T(sqliteValue: values[index])
    }

    func hasColumn(_ name: String) -> Bool { names.contains(name) }
}
