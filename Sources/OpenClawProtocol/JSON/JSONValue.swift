/// A JSON document as a value tree.
///
/// Gateway payloads are open-ended (`details`, tool arguments, history parts), so every frame is
/// parsed once into this tree and typed views are read from it. Integers are kept apart from
/// doubles so that millisecond timestamps and sequence numbers survive a round trip exactly.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// An object with the dictionary's members.
    public static func object(_ dictionary: [String: JSONValue]) -> JSONValue { .object(JSONObject(dictionary)) }
}

extension JSONValue {
    /// The member `key` of an object; nil for a missing key, an explicit `null` member, or a value that
    /// is not an object. Gateways (and their serialisers) write `null` for an absent optional as often
    /// as they leave it out, so readers treat the two alike; the raw members are in ``objectValue``.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self, let member = members[key] else { return nil }
        if case .null = member { return nil }
        return member
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A string with at least one non-blank character: the protocol's `NonEmptyString`.
    public var nonEmptyStringValue: String? {
        guard case .string(let value) = self else { return nil }
        // Most values start with a visible ASCII character: no need to walk them as Characters.
        if let first = value.utf8.first, first > 0x20, first < 0x7F { return value }
        return value.allSatisfy(\.isWhitespace) ? nil : value
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// An integer, also from a double with no fractional part (some encoders write `3.0`).
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int(value)
        default: return nil
        }
    }

    /// A count or number the way lenient gateways send it: an integer, an integral double, or a
    /// string holding a decimal integer (`"42"`, some serialisers quote 64-bit numbers).
    public var lenientIntValue: Int? {
        if let value = intValue { return value }
        guard case .string(let text) = self else { return nil }
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 19 else { return nil }
        return Int(trimmed)
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The strings of an array, skipping members that are not strings.
    public var stringArrayValue: [String]? {
        arrayValue?.compactMap(\.stringValue)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue {
    /// Builds an object from optional members, leaving out the nil ones. Encoders use it so that an
    /// absent optional never reaches the wire as `null` (closed schemas reject `null` for strings).
    public static func object(dropping members: [(String, JSONValue?)]) -> JSONValue {
        var result = JSONObject(minimumCapacity: members.count)
        for (key, value) in members {
            if let value { result.set(value, for: key) }
        }
        return .object(result)
    }

    /// `.string` for a non-nil string.
    public static func string(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }
    /// `.int` for a non-nil integer.
    public static func int(_ value: Int?) -> JSONValue? { value.map(JSONValue.int) }
    /// `.bool` for a non-nil boolean.
    public static func bool(_ value: Bool?) -> JSONValue? { value.map(JSONValue.bool) }
    /// An array of strings for a non-nil list.
    public static func strings(_ value: [String]?) -> JSONValue? { value.map { .array($0.map(JSONValue.string)) } }
}
