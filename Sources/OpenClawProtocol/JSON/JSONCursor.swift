/// One pass over a document's bytes, for ``JSONParser``: where it is, and each kind of value read from
/// there. Bounds are checked against the buffer; nesting against `maxDepth`.
struct JSONCursor {
    let buffer: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buffer = buffer
        self.maxDepth = maxDepth
    }

    mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func fail(_ reason: JSONParseError.Reason) -> JSONParseError {
        JSONParseError(reason: reason, offset: index)
    }

    mutating func peek() throws(JSONParseError) -> UInt8 {
        guard index < buffer.count else { throw fail(.unexpectedEnd) }
        return buffer[index]
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let byte: throw fail(.unexpectedByte(byte))
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= buffer.count else { throw fail(.unexpectedEnd) }
        let start = literal.utf8Start
        for offset in 0..<count where buffer[index + offset] != start[offset] {
            index += offset
            throw fail(.unexpectedByte(buffer[index]))
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        // Room for the protocol's usual objects (3 to 6 members) from the start.
        var members = JSONObject(minimumCapacity: 6)
        try parseMembers(depth: depth) { (key, cursor) throws(JSONParseError) in
            members.set(try cursor.parseValue(depth: depth), for: key)
        }
        return .object(members)
    }

    /// An object's members in document order, without building its dictionary (the cursor is on its `{`).
    mutating func parseObjectMembers(depth: Int) throws(JSONParseError) -> [JSONMember] {
        var members: [JSONMember] = []
        members.reserveCapacity(8)
        try parseMembers(depth: depth) { (key, cursor) throws(JSONParseError) in
            members.append(JSONMember(key: key, value: try cursor.parseValue(depth: depth)))
        }
        return members
    }

    /// An object's members, in order (the cursor is on its `{`): `readValue` is given each name with
    /// the cursor on its value, and reads the value however it wants it.
    @inline(__always)
    mutating func parseMembers(
        depth: Int, _ readValue: (String, inout JSONCursor) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        guard depth <= maxDepth else { throw fail(.nestingTooDeep(limit: maxDepth)) }
        index += 1
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw fail(.unexpectedByte(buffer[index])) }
            let key = try parseKey()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw fail(.unexpectedByte(buffer[index])) }
            index += 1
            skipWhitespace()
            try readValue(key, &self)
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return
            case let byte: throw fail(.unexpectedByte(byte))
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw fail(.nestingTooDeep(limit: maxDepth)) }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            case let byte: throw fail(.unexpectedByte(byte))
            }
        }
    }

    /// A member's name: one of the protocol's usual names is returned without making a new string
    /// (a streamed delta has eight of them, and making them was a sixth of its parse).
    mutating func parseKey() throws(JSONParseError) -> String {
        let start = index + 1
        var end = start
        while end < buffer.count, end - start <= ProtocolKeys.longest {
            let byte = buffer[end]
            if byte == UInt8(ascii: "\"") {
                if let key = ProtocolKeys.key(UnsafeBufferPointer(rebasing: buffer[start..<end])) {
                    index = end + 1
                    return key
                }
                break
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        return try parseString()
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        skipPlainBytes()
        guard index < buffer.count else { throw fail(.unexpectedEnd) }
        let stop = buffer[index]
        if stop == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
            index += 1
            return text
        }
        if stop < 0x20 { throw fail(.unexpectedByte(stop)) }
        // Escapes: the plain runs between them are copied whole, not byte by byte (long replies are
        // full of `\n`, and a v3 delta carries the whole reply so far).
        var bytes = Array(UnsafeBufferPointer(rebasing: buffer[start..<index]))
        while index < buffer.count {
            let runStart = index
            skipPlainBytes()
            if index > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index])) }
            guard index < buffer.count else { break }
            let byte = buffer[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &bytes)
            default:
                throw fail(.unexpectedByte(byte))
            }
        }
        throw fail(.unexpectedEnd)
    }

    /// Moves past the bytes a string holds as they are: up to its closing quote, an escape, a control
    /// byte (an error) or the end. Eight bytes a step while none of them is one of those: a streamed
    /// reply's text is most of what a frame holds, and one byte a step made this a tenth of decoding it.
    @inline(__always)
    mutating func skipPlainBytes() {
        if let base = buffer.baseAddress.map(UnsafeRawPointer.init) {
            while index + 8 <= buffer.count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if Self.endsPlainRun(word) { break }
                index += 8
            }
        }
        while index < buffer.count {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return }
            index += 1
        }
    }

    /// Whether any of the eight bytes of `word` is a quote, a backslash or below 0x20 (the classic
    /// test for a zero byte, `(x - 0x01…) & ~x & 0x80…`, applied to the word XORed with each byte
    /// sought, and to the word itself against 0x20). Exact as to whether there is one; where it is,
    /// the byte loop finds.
    @inline(__always)
    static func endsPlainRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & highBits != 0
    }

    mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
        let byte = try peek()
        index += 1
        switch byte {
        case UInt8(ascii: "\""): bytes.append(0x22)
        case UInt8(ascii: "\\"): bytes.append(0x5C)
        case UInt8(ascii: "/"): bytes.append(0x2F)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate; otherwise U+FFFD.
                if index + 1 < buffer.count, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    let low = try parseHex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        appendScalar(0xFFFD, to: &bytes)
                        scalar = low
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00..<0xE000).contains(scalar) {
                scalar = 0xFFFD
            }
            appendScalar(scalar, to: &bytes)
        default:
            index -= 1
            throw fail(.invalidEscape)
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= buffer.count else { throw fail(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = buffer[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail(.invalidUnicodeEscape)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func appendScalar(_ value: UInt32, to bytes: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        bytes.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [0xEF, 0xBF, 0xBD])
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if buffer[index] == UInt8(ascii: "-") { index += 1 }
        guard index < buffer.count else { throw fail(.unexpectedEnd) }
        if buffer[index] == UInt8(ascii: "0") {
            index += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(buffer[index]) {
            while index < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[index]) { index += 1 }
        } else {
            throw fail(.invalidNumber)
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let digitsStart = index
            while index < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[index]) { index += 1 }
            guard index > digitsStart else { throw fail(.invalidNumber) }
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") {
                index += 1
            }
            let digitsStart = index
            while index < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[index]) { index += 1 }
            guard index > digitsStart else { throw fail(.invalidNumber) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw JSONParseError(reason: .invalidNumber, offset: start) }
        return .double(value)
    }
}
