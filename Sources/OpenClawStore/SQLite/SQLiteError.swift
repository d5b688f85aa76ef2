import CSQLite

/// A failure SQLite reported, with its result code, so callers can tell a damaged file
/// (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) from trouble the file is innocent of (busy, I/O, permissions).
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, as SQLite returned it (extended codes are turned on for every
    /// connection).
    let extendedCode: Int32
    /// SQLite's message for the failure.
    let message: String

    /// The primary result code: what the store's recovery decides on.
    var resultCode: SQLiteResultCode { SQLiteResultCode(rawValue: extendedCode) }

    init(code: Int32, message: String) {
        extendedCode = code
        self.message = message
    }

    /// The error `code` means on `connection`, with the connection's message for it when it has one.
    init(code: Int32, connection: OpaquePointer?) {
        extendedCode = code
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "unknown"
        }
    }

    var description: String { "SQLite error \(resultCode.rawValue): \(message)" }
}
