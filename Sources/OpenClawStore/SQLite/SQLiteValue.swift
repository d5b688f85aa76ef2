/// A value as SQLite stores it: one of its five storage classes.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value that binds to a statement parameter.
protocol SQLiteBindable: Sendable {
    var sqliteValue: SQLiteValue { get }
}

/// A Swift value read from a column. Conversions follow SQLite's own affinity rules where they are
/// lossless (an integer column reads as a `Double`, a whole real as an `Int`); anything else, NULL
/// included, reads as nil, so a damaged row degrades to a default instead of trapping.
protocol SQLiteColumnDecodable {
    init?(sqliteValue: SQLiteValue)
}

/// The parameters of a statement, in order.
typealias SQLiteArguments = [any SQLiteBindable]

extension SQLiteValue: SQLiteBindable {
    var sqliteValue: SQLiteValue { self }
}

extension String: SQLiteBindable, SQLiteColumnDecodable {
    var sqliteValue: SQLiteValue { .text(self) }

    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let text): self = text
        case .blob(let bytes): self = String(decoding: bytes, as: UTF8.self)
        case .null, .integer, .real: return nil
        }
    }
}

extension Int64: SQLiteBindable, SQLiteColumnDecodable {
    var sqliteValue: SQLiteValue { .integer(self) }

    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value): self.init(exactly: value)
        case .null, .text, .blob: return nil
        }
    }
}

extension Int: SQLiteBindable, SQLiteColumnDecodable {
    var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self.init(exactly: value)
    }
}

extension Double: SQLiteBindable, SQLiteColumnDecodable {
    var sqliteValue: SQLiteValue { .real(self) }

    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .null, .text, .blob: return nil
        }
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
