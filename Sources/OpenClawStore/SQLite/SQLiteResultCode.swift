import CSQLite

/// A primary SQLite result code (the low byte of an extended one): what kind of failure it was.
struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue & 0xFF }

    static let error = Self(rawValue: SQLITE_ERROR)
    static let internalError = Self(rawValue: SQLITE_INTERNAL)
    static let permission = Self(rawValue: SQLITE_PERM)
    static let busy = Self(rawValue: SQLITE_BUSY)
    static let locked = Self(rawValue: SQLITE_LOCKED)
    static let readOnly = Self(rawValue: SQLITE_READONLY)
    static let ioError = Self(rawValue: SQLITE_IOERR)
    static let corrupt = Self(rawValue: SQLITE_CORRUPT)
    static let full = Self(rawValue: SQLITE_FULL)
    static let cannotOpen = Self(rawValue: SQLITE_CANTOPEN)
    static let misuse = Self(rawValue: SQLITE_MISUSE)
    static let format = Self(rawValue: SQLITE_FORMAT)
    static let auth = Self(rawValue: SQLITE_AUTH)
    static let notADatabase = Self(rawValue: SQLITE_NOTADB)

    var description: String { "\(rawValue)" }
}
