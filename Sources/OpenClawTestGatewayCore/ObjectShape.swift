import OpenClawProtocol

/// A closed JSON object schema, enough to validate request params the way the gateway's validator
/// does: unknown keys, missing required keys, wrong types, enums, lengths and bounds all fail.
///
/// Messages follow the validator's `at <path>: <problem>` style joined with `; `.
struct ObjectShape: Sendable {
    indirect enum Field: Sendable {
        case string(minLength: Int = 0, maxLength: Int? = nil)
        case integer(minimum: Int? = nil, maximum: Int? = nil)
        case boolean
        case oneOf([String])
        case stringArray(
            itemMinLength: Int = 0, itemMaxLength: Int? = nil, minItems: Int = 0, maxItems: Int? = nil,
            unique: Bool = false)
        /// An array of numbers, each at least `minimum`.
        case numberArray(minimum: Double, minItems: Int, maxItems: Int)
        /// An array of objects of one closed shape.
        case objectArray(ObjectShape, maxItems: Int? = nil)
        /// A JSON number (integer or not), at least `minimum`.
        case number(minimum: Double)
        /// A string or a number (upstream's `turnSourceThreadId`).
        case stringOrNumber
        /// Only `null` (a field that can only clear a setting).
        case null
        /// An open object whose values all fit `value`, with keys of 1…`keyMaxLength` characters and
        /// at most `maxCount` members (upstream's `Type.Record`).
        case record(Field, keyMaxLength: Int? = nil, maxCount: Int? = nil)
        case array
        case object(ObjectShape)
        /// An open object whose values must all be booleans (`permissions`).
        case booleanMap
        /// An open object with any members.
        case anyObject
        case boolOrConst(String)
        /// The field's type, or `null` (to clear a setting).
        case nullable(Field)
        case any
    }

    var fields: [String: Field]
    var required: Set<String>
    /// Keys of which exactly one must be present: upstream's `anyOf` of closed objects that differ
    /// only in that key (`HumanMentionSchema`).
    var exactlyOneOf: Set<String>

    init(_ fields: [String: Field], required: Set<String> = [], exactlyOneOf: Set<String> = []) {
        self.fields = fields
        self.required = required
        self.exactlyOneOf = exactlyOneOf
    }

    /// The problems with `value`, empty when it conforms.
    func problems(in value: JSONValue?, path: String = "") -> [String] {
        guard let members = value?.objectValue else { return ["\(Self.at(path)): must be object"] }
        var problems: [String] = []
        for key in required.sorted() where members[key] == nil {
            problems.append("\(Self.at(path)): must have required property '\(key)'")
        }
        if !exactlyOneOf.isEmpty, exactlyOneOf.count(where: { members[$0] != nil }) != 1 {
            problems.append("\(Self.at(path)): must match a schema in anyOf")
        }
        for key in members.keys.sorted() {
            guard let field = fields[key] else {
                problems.append("\(Self.at(path)): unexpected property '\(key)'")
                continue
            }
            if let member = members[key] {
                problems += Self.problems(in: member, field: field, path: "\(path)/\(key)")
            }
        }
        return problems
    }

    private static func problems(in value: JSONValue, field: Field, path: String) -> [String] {
        switch field {
        case .string(let minLength, let maxLength):
            guard let text = value.stringValue else { return ["\(at(path)): must be string"] }
            if text.count < minLength { return ["\(at(path)): must NOT have fewer than \(minLength) characters"] }
            if let maxLength, text.count > maxLength {
                return ["\(at(path)): must NOT have more than \(maxLength) characters"]
            }
            return []
        case .integer(let minimum, let maximum):
            guard case .int(let number) = value else { return ["\(at(path)): must be integer"] }
            if let minimum, number < minimum { return ["\(at(path)): must be >= \(minimum)"] }
            if let maximum, number > maximum { return ["\(at(path)): must be <= \(maximum)"] }
            return []
        case .boolean:
            return value.boolValue == nil ? ["\(at(path)): must be boolean"] : []
        case .oneOf(let allowed):
            guard let text = value.stringValue, allowed.contains(text) else {
                return ["\(at(path)): must be equal to one of the allowed values"]
            }
            return []
        case .stringArray(let itemMinLength, let itemMaxLength, let minItems, let maxItems, let unique):
            guard let items = value.arrayValue else { return ["\(at(path)): must be array"] }
            if let problem = countProblem(items.count, minItems: minItems, maxItems: maxItems, path: path) {
                return [problem]
            }
            for (index, item) in items.enumerated() {
                let field = Field.string(minLength: itemMinLength, maxLength: itemMaxLength)
                let problems = problems(in: item, field: field, path: "\(path)/\(index)")
                if !problems.isEmpty { return problems }
                if unique, items[..<index].contains(item) {
                    return ["\(at(path)): must NOT have duplicate items"]
                }
            }
            return []
        case .numberArray(let minimum, let minItems, let maxItems):
            guard let items = value.arrayValue else { return ["\(at(path)): must be array"] }
            if let problem = countProblem(items.count, minItems: minItems, maxItems: maxItems, path: path) {
                return [problem]
            }
            for (index, item) in items.enumerated() {
                let problems = problems(in: item, field: .number(minimum: minimum), path: "\(path)/\(index)")
                if !problems.isEmpty { return problems }
            }
            return []
        case .objectArray(let shape, let maxItems):
            guard let items = value.arrayValue else { return ["\(at(path)): must be array"] }
            if let problem = countProblem(items.count, minItems: 0, maxItems: maxItems, path: path) { return [problem] }
            return items.enumerated().flatMap { shape.problems(in: $1, path: "\(path)/\($0)") }
        case .number(let minimum):
            guard let number = value.doubleValue else { return ["\(at(path)): must be number"] }
            return number < minimum ? ["\(at(path)): must be >= \(minimum)"] : []
        case .stringOrNumber:
            if value.stringValue != nil || value.doubleValue != nil { return [] }
            return ["\(at(path)): must match a schema in anyOf"]
        case .null:
            if case .null = value { return [] }
            return ["\(at(path)): must be null"]
        case .record(let field, let keyMaxLength, let maxCount):
            guard let members = value.objectValue else { return ["\(at(path)): must be object"] }
            if let maxCount, members.count > maxCount {
                return ["\(at(path)): must NOT have more than \(maxCount) properties"]
            }
            for key in members.keys.sorted() {
                if key.isEmpty || keyMaxLength.map({ key.count > $0 }) == true {
                    return ["\(at(path)): property name must be valid"]
                }
                if let member = members[key] {
                    let problems = problems(in: member, field: field, path: "\(path)/\(key)")
                    if !problems.isEmpty { return problems }
                }
            }
            return []
        case .array:
            return value.arrayValue == nil ? ["\(at(path)): must be array"] : []
        case .object(let shape):
            return shape.problems(in: value, path: path)
        case .booleanMap:
            guard let members = value.objectValue else { return ["\(at(path)): must be object"] }
            for key in members.keys.sorted() where members[key]?.boolValue == nil {
                return ["\(at("\(path)/\(key)")): must be boolean"]
            }
            return []
        case .anyObject:
            return value.objectValue == nil ? ["\(at(path)): must be object"] : []
        case .boolOrConst(let constant):
            if value.boolValue != nil || value.stringValue == constant { return [] }
            return ["\(at(path)): must match a schema in anyOf"]
        case .nullable(let inner):
            if case .null = value { return [] }
            return problems(in: value, field: inner, path: path)
        case .any:
            return []
        }
    }

    private static func countProblem(_ count: Int, minItems: Int, maxItems: Int?, path: String) -> String? {
        if count < minItems { return "\(at(path)): must NOT have fewer than \(minItems) items" }
        if let maxItems, count > maxItems { return "\(at(path)): must NOT have more than \(maxItems) items" }
        return nil
    }

    private static func at(_ path: String) -> String { path.isEmpty ? "at root" : "at \(path)" }
}
