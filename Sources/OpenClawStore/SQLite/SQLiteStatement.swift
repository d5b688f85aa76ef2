import CSQLite

/// A prepared statement of one `SQLiteConnection`, used only on that connection's thread of the
/// moment (see `SQLiteConnection`). Each run resets it and binds its arguments afresh, so a cached
/// statement can run again with other values.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The names of the result columns, read once.
    let columnNames: [String]

    /// Prepares the first statement of `sql`, which must hold exactly one.
    convenience init(connection: OpaquePointer, sql: String) throws {
        let prepared = try sql.withCString { text throws in
            try Self.prepare(connection: connection, text: text)
        }
        guard let prepared else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in SQL") }
        self.init(handle: prepared.handle, connection: connection)
    }

    init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
        columnNames = (0..<sqlite3_column_count(handle)).map { index in
            sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
        }
    }

    deinit { sqlite3_finalize(handle) }

    /// Prepares the statement that starts at `text`; nil when only whitespace or comments remain.
    /// `rest` is where the next statement starts.
    static func prepare(
        connection: OpaquePointer, text: UnsafePointer<CChar>
    ) throws -> (handle: OpaquePointer, rest: UnsafePointer<CChar>)? {
        var handle: OpaquePointer?
        var rest: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v2(connection, text, -1, &handle, &rest)
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, connection: connection)
            sqlite3_finalize(handle)
            throw error
        }
        guard let handle else { return nil }
        return (handle, rest ?? text)
    }

    /// How many `?` parameters the statement has.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Runs the statement to its end with `arguments`, discarding any rows.
    func execute(_ arguments: SQLiteArguments = []) throws {
        try bind(arguments)
        while try step() {}
    }

    /// Every row of the statement with `arguments`.
    func rows(_ arguments: SQLiteArguments = []) throws -> [SQLiteRow] {
        try bind(arguments)
        var rows: [SQLiteRow] = []
        while try step() { rows.append(SQLiteRow(names: columnNames, values: currentValues())) }
        return rows
    }

    /// The first column of the first row as `T`; nil when there is no row, or the value is NULL.
    func scalar<T: SQLiteColumnDecodable>(_: T.Type, _ arguments: SQLiteArguments = []) throws -> T? {
        try bind(arguments)
        guard try step(), sqlite3_column_count(handle) > 0 else { return nil }
        let value = T(sqliteValue: value(at: 0))
        sqlite3_reset(handle)
        return value
    }

    /// The first column of every row whose value converts to `T`.
    func column<T: SQLiteColumnDecodable>(_: T.Type, _ arguments: SQLiteArguments = []) throws -> [T] {
        try bind(arguments)
        var result: [T] = []
        while try step() {
            if sqlite3_column_count(handle) > 0, let value = T(sqliteValue: value(at: 0)) { result.append(value) }
        }
        return result
    }

    /// Resets the statement and binds `arguments` to its parameters, in order.
    private func bind(_ arguments: SQLiteArguments) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard arguments.count == parameterCount else {
            throw SQLiteError(
                code: SQLITE_MISUSE,
                message: "\(arguments.count) arguments for \(parameterCount) parameters")
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument.sqliteValue {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
            case .real(let value): code = sqlite3_bind_double(handle, index, value)
            case .text(let value):
                // The byte count, not -1: text may hold a NUL, which would end it early.
                code = sqlite3_bind_text(handle, index, value, Int32(value.utf8.count), Self.transient)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), Self.transient)
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
        }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    private func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            let error = SQLiteError(code: code, connection: connection)
            sqlite3_reset(handle)
            throw error
        }
    }

    private func currentValues() -> [SQLiteValue] {
        (0..<Int32(columnNames.count)).map(value(at:))
    }

    private func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_blob(handle, index), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies a bound text or blob before the call returns (the macro is a
    /// cast C headers spell, which Swift does not import).
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}
