/// Why a byte sequence is not a JSON document we accept.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong with the input.
    public enum Reason: Sendable, Equatable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidNumber
        case invalidEscape
        case invalidUnicodeEscape
        case nestingTooDeep(limit: Int)
        case trailingContent
    }

    public let reason: Reason
    /// Byte offset where the problem was found.
    public let offset: Int

    public var description: String {
        switch reason {
        case .unexpectedEnd: return "JSON ends unexpectedly at byte \(offset)"
        case .unexpectedByte(let byte): return "unexpected byte 0x\(String(byte, radix: 16)) at \(offset)"
        case .invalidNumber: return "invalid number at byte \(offset)"
        case .invalidEscape: return "invalid escape at byte \(offset)"
        case .invalidUnicodeEscape: return "invalid \\u escape at byte \(offset)"
        case .nestingTooDeep(let limit): return "JSON nested deeper than \(limit) levels at byte \(offset)"
        case .trailingContent: return "content after the JSON value at byte \(offset)"
        }
    }
}

/// A single-pass RFC 8259 parser into ``JSONValue``.
///
/// Written here rather than using `JSONDecoder` because every inbound frame is parsed exactly once
/// on the hot path (20,000 deltas per long reply) and typed views are then read from the tree.
/// Nesting depth is bounded so that hostile input cannot exhaust the stack.
public struct JSONParser: Sendable {
    public static let defaultMaxDepth = 256
    public var maxDepth: Int

    public init(maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        try Self.reading(bytes, parse(buffer:))
    }

    /// Parses the string's own UTF-8 storage, without copying it first (native strings are contiguous).
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try Self.reading(text, parse(buffer:))
    }

    /// A member of a frame's envelope as ``parseEnvelope(_:)`` reads it.
    struct EnvelopeMember {
        let key: String
        let value: EnvelopeValue
    }

    /// A member's value in a frame's envelope.
    enum EnvelopeValue {
        case value(JSONValue)
        /// The `payload` object's members in document order: its dictionary is built only if someone
        /// asks for the payload as a whole (a streamed delta is read member by member, by `ChatEvent`).
        case members([JSONMember])

        /// The member's value for any name but `payload` (which alone is read as members); nil for an
        /// explicit `null`, which reads as absent.
        var present: JSONValue? { EventPayload(self)?.value }
    }

    /// The members of a frame: those of a top-level object, with an object `payload` kept as its
    /// members (see ``EnvelopeValue``); nil when the document is valid JSON but not an object.
    func parseEnvelope(_ text: String) throws(JSONParseError) -> [EnvelopeMember]? {
        try Self.reading(text, parseEnvelope(buffer:))
    }

    func parseEnvelope(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> [EnvelopeMember]? {
        try Self.reading(bytes, parseEnvelope(buffer:))
    }

    /// `read` over the string's own UTF-8 storage, without a copy (native strings are contiguous).
    private static func reading<Parsed>(
        _ text: String, _ read: (UnsafeBufferPointer<UInt8>) -> Result<Parsed, JSONParseError>
    ) throws(JSONParseError) -> Parsed {
        var text = text
        return try text.withUTF8(read).get()
    }

    /// `read` over the bytes, copied first only when they are not contiguous.
    private static func reading<Parsed>(
        _ bytes: some Collection<UInt8>, _ read: (UnsafeBufferPointer<UInt8>) -> Result<Parsed, JSONParseError>
    ) throws(JSONParseError) -> Parsed {
        let result = bytes.withContiguousStorageIfAvailable(read) ?? Array(bytes).withUnsafeBufferPointer(read)
        return try result.get()
    }

    private func parseEnvelope(buffer: UnsafeBufferPointer<UInt8>) -> Result<[EnvelopeMember]?, JSONParseError> {
        topLevelMembers(buffer: buffer) { (key, cursor) throws(JSONParseError) -> EnvelopeMember in
            if key.utf8.count == 7, key == "payload", try cursor.peek() == UInt8(ascii: "{") {
                return EnvelopeMember(key: key, value: .members(try cursor.parseObjectMembers(depth: 2)))
            }
            return EnvelopeMember(key: key, value: .value(try cursor.parseValue(depth: 1)))
        }
    }

    /// The members of the document's top-level object, each read by `readMember` (the cursor on its
    /// value); nil when the document is another kind of value.
    @inline(__always)
    private func topLevelMembers<Member>(
        buffer: UnsafeBufferPointer<UInt8>, _ readMember: (String, inout JSONCursor) throws(JSONParseError) -> Member
    ) -> Result<[Member]?, JSONParseError> {
        Result { () throws(JSONParseError) -> [Member]? in
            var cursor = JSONCursor(buffer: buffer, maxDepth: maxDepth)
            cursor.skipWhitespace()
            var members: [Member]?
            if try cursor.peek() == UInt8(ascii: "{") {
                var found: [Member] = []
                found.reserveCapacity(6)
                try cursor.parseMembers(depth: 1) { (key, cursor) throws(JSONParseError) in
                    found.append(try readMember(key, &cursor))
                }
                members = found
            } else {
                _ = try cursor.parseValue(depth: 0)
            }
            cursor.skipWhitespace()
            guard cursor.index == buffer.count else {
                throw JSONParseError(reason: .trailingContent, offset: cursor.index)
            }
            return members
        }
    }

    private func parse(buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) -> JSONValue in
            var cursor = JSONCursor(buffer: buffer, maxDepth: maxDepth)
            cursor.skipWhitespace()
            let value = try cursor.parseValue(depth: 0)
            cursor.skipWhitespace()
            guard cursor.index == buffer.count else {
                throw JSONParseError(reason: .trailingContent, offset: cursor.index)
            }
            return value
        }
    }
}
