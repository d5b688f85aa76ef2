/// Reads the timestamps transcripts carry: epoch milliseconds (integer or fractional), or an
/// ISO 8601 / RFC 3339 string, which some transcript writers and imported sessions use.
///
/// Hand-written so the protocol module stays free of Foundation's formatters, which differ between
/// platforms in what they accept.
package enum WireTimestamp {
    /// Epoch milliseconds from a JSON number or string; nil for anything else.
    ///
    /// Numbers between 10⁹ and 10¹¹ are read as epoch **seconds** (Python's `time.time()`, Go's
    /// `Unix()`): as milliseconds they would fall in the first days of 1970, which no gateway means,
    /// while as seconds they span 2001 to 5138. Smaller and larger numbers are milliseconds.
    package static func epochMilliseconds(_ json: JSONValue?) -> Int? {
        switch json {
        case .int(let value)?: return fromNumber(Double(value), exact: value)
        case .double(let value)?: return fromNumber(value, exact: nil)
        case .string(let text)?:
            let trimmed = text.trimmingASCIIWhitespace()
            if let digits = Int(trimmed) { return fromNumber(Double(digits), exact: digits) }
            if let number = Double(trimmed), trimmed.utf8.allSatisfy(isNumberByte) {
                return fromNumber(number, exact: nil)
            }
            return iso8601EpochMilliseconds(trimmed)
        default: return nil
        }
    }

    /// The bound below which a positive epoch number is taken for seconds (see ``epochMilliseconds(_:)``).
    static let secondsRange = 1.0e9..<1.0e11

    private static func fromNumber(_ value: Double, exact: Int?) -> Int? {
        guard value.isFinite, abs(value) < 9.0e15 else { return nil }
        if secondsRange.contains(value) { return Int((value * 1000).rounded(.down)) }
        return exact ?? Int(value.rounded(.down))
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }

    /// Epoch milliseconds of `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff...]]` with an optional zone
    /// (`Z` or `±HH[:MM]`), `T` or a space between date and time. A time without a zone is read as
    /// UTC. Nil for anything malformed or out of range.
    package static func iso8601EpochMilliseconds(_ text: String) -> Int? {
        var reader = ByteReader(Array(text.utf8))
        reader.skipSpaces()
        guard let year = reader.digits(exactly: 4), reader.take(UInt8(ascii: "-")),
            let month = reader.digits(exactly: 2), reader.take(UInt8(ascii: "-")),
            let day = reader.digits(exactly: 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let dayNumber = daysFromCivil(year: year, month: month, day: day)
        reader.skipSpacesAtEnd()
        if reader.isAtEnd { return dayNumber * 86_400_000 }

        guard let separator = reader.next(),
            separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
                || separator == UInt8(ascii: " "),
            let hour = reader.digits(exactly: 2), reader.take(UInt8(ascii: ":")),
            let minute = reader.digits(exactly: 2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        var millisecond = 0
        if reader.take(UInt8(ascii: ":")) {
            guard let value = reader.digits(exactly: 2), value <= 60 else { return nil }
            second = value
            if reader.take(UInt8(ascii: ".")) || reader.take(UInt8(ascii: ",")) {
                guard let fraction = reader.fractionMilliseconds() else { return nil }
                millisecond = fraction
            }
        }
        guard let offsetMinutes = reader.zoneOffsetMinutes() else { return nil }
        reader.skipSpacesAtEnd()
        guard reader.isAtEnd else { return nil }

        let secondsOfDay = hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return (dayNumber * 86_400 + secondsOfDay) * 1000 + millisecond
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A cursor over the bytes of a timestamp string.
private struct ByteReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    }

    /// Skips spaces only when nothing but spaces follows, so a space separator is not eaten.
    mutating func skipSpacesAtEnd() {
        var probe = index
        while probe < bytes.count, bytes[probe] == UInt8(ascii: " ") { probe += 1 }
        if probe == bytes.count { index = probe }
    }

    mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            guard let digit = Self.digit(bytes[index + offset]) else { return nil }
            value = value * 10 + digit
        }
        index += count
        return value
    }

    /// A fraction of a second as milliseconds: any number of digits, truncated to three.
    mutating func fractionMilliseconds() -> Int? {
        var value = 0
        var count = 0
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            if count < 3 { value = value * 10 + digit }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { value *= 10 }
        return value
    }

    /// The zone as minutes east of UTC: 0 for `Z` or no zone; nil for a malformed offset.
    mutating func zoneOffsetMinutes() -> Int? {
        guard index < bytes.count else { return 0 }
        let marker = bytes[index]
        if marker == UInt8(ascii: "Z") || marker == UInt8(ascii: "z") {
            index += 1
            return 0
        }
        guard marker == UInt8(ascii: "+") || marker == UInt8(ascii: "-") else {
            return marker == UInt8(ascii: " ") ? 0 : nil
        }
        index += 1
        guard let hours = digits(exactly: 2), hours < 24 else { return nil }
        var minutes = 0
        if take(UInt8(ascii: ":")) {
            guard let value = digits(exactly: 2) else { return nil }
            minutes = value
        } else if let value = digits(exactly: 2) {
            minutes = value
        }
        guard minutes < 60 else { return nil }
        let total = hours * 60 + minutes
        return marker == UInt8(ascii: "-") ? -total : total
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
