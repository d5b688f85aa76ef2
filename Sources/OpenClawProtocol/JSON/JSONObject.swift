/// A JSON object's members: unique names, kept in the order they were first given, each name once.
///
/// Not a `Dictionary`, because of what the protocol's objects are: a handful of members, read once by a
/// few lookups, then dropped. A dictionary hashed every name as it was parsed, again at every lookup,
/// and allocated and freed a hash table per object: on a page of history, about an eighth of the
/// client's work per message. Here parsing appends, a lookup compares names (two short ASCII names
/// compare as two machine words), and the members go as one array. An object of more than 16 members (a
/// hostile or unusual document) gets a name index, so no lookup or parse costs more than a
/// dictionary's would.
///
/// Equality and hashing ignore the order, as a dictionary's do. Of duplicate names, the last value
/// counts, in the place of the first.
public struct JSONObject: Sendable {
    @usableFromInline var members: [JSONMember]
    /// Positions by name, only past `indexedCount` members.
    @usableFromInline var index: [String: Int]?

    /// Above this many members, names are found through an index rather than by comparing each.
    @usableFromInline static let indexedCount = 16

    public init() {
        members = []
        index = nil
    }

    public init(minimumCapacity: Int) {
        self.init()
        members.reserveCapacity(minimumCapacity)
    }

    /// The dictionary's members, in its (arbitrary) order.
    public init(_ dictionary: [String: JSONValue]) {
        members = dictionary.map { JSONMember(key: $0.key, value: $0.value) }
        index = nil
        if members.count > Self.indexedCount { buildIndex() }
    }

    /// The members in order; of duplicate names the last value counts.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.init(minimumCapacity: members.underestimatedCount)
        for (key, value) in members { set(value, for: key) }
    }

    init(members: [JSONMember]) {
        self.init()
        self.members.reserveCapacity(members.count)
        for member in members { set(member.value, for: member.key) }
    }

    public var keys: [String] { members.map(\.key) }

    /// The value of `key`, nil when absent; assigning nil removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let newValue {
                set(newValue, for: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let removed = members.remove(at: position).value
        if index != nil { buildIndex() }
        return removed
    }

    /// `transform`'s results by name, as a dictionary (what the caller keeps, typed).
    public func mapValues<T>(_ transform: (JSONValue) throws -> T) rethrows -> [String: T] {
        var result: [String: T] = Dictionary(minimumCapacity: members.count)
        for member in members { result[member.key] = try transform(member.value) }
        return result
    }

    /// The non-nil results of `transform` by name, as a dictionary (what the caller keeps, typed).
    public func compactMapValues<T>(_ transform: (JSONValue) throws -> T?) rethrows -> [String: T] {
        var result: [String: T] = Dictionary(minimumCapacity: members.count)
        for member in members {
            if let value = try transform(member.value) { result[member.key] = value }
        }
        return result
    }

    // MARK: Storage

    @inlinable
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        // `String`'s equality, as the index's and a dictionary's: canonically equivalent names (a KELVIN
        // SIGN for `K`, a decomposed `é`) are one name, though their UTF-8 lengths differ.
        return members.firstIndex { $0.key == key }
    }

    /// Sets `value` for `key`: in place when the name is there, appended when it is not.
    @inlinable
    mutating func set(_ value: JSONValue, for key: String) {
        if let position = position(of: key) {
            members[position] = JSONMember(key: key, value: value)
        } else {
            append(JSONMember(key: key, value: value))
        }
    }

    /// Appends a member whose name is not there yet.
    @inlinable
    mutating func append(_ member: JSONMember) {
        members.append(member)
        if index != nil {
            index?[member.key] = members.count - 1
        } else if members.count > Self.indexedCount {
            buildIndex()
        }
    }

    @usableFromInline
    mutating func buildIndex() {
        var positions: [String: Int] = Dictionary(minimumCapacity: members.count)
        for (position, member) in members.enumerated() { positions[member.key] = position }
        index = positions
    }
}

extension JSONObject: RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)

    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }

    public subscript(position: Int) -> (key: String, value: JSONValue) {
        let member = members[position]
        return (member.key, member.value)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Hashable {
    /// The same names with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Independent of the order, as a dictionary's is: each member hashed on its own, combined by
    /// an operation that does not depend on the order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

/// One member of an object, in document order. A struct rather than a tuple: an array of tuples is
/// destroyed element by element through the runtime's generic tuple code (about 1% of decoding a
/// streamed delta).
public struct JSONMember: Sendable {
    public let key: String
    public let value: JSONValue

    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
