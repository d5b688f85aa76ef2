import Foundation
import OpenClawProtocol

/// A JSON Schema (draft-07 subset) validator for the shared protocol schemas.
///
/// Supports the keywords those schemas use: `$ref` (local JSON pointers such as
/// `#/definitions/X`), `type` (one or a list; `integer` vs `number`), `properties`, `required`,
/// `additionalProperties` (boolean or schema), `patternProperties`, `enum`, `const`, `anyOf`,
/// `oneOf`, `not`, `items`, `minItems`, `maxItems`, `minLength`, `maxLength`, `minimum`, `maximum`,
/// `pattern`, `uniqueItems`, `propertyNames`, `minProperties` and `maxProperties`. Annotations (`title`, `description`, `default`, `discriminator`, …)
/// are ignored. Lengths count Unicode code points, as Ajv does.
public struct JSONSchemaValidator: Sendable {
    /// The schema document `$ref`s resolve against.
    public let document: JSONValue

    public init(document: JSONValue) {
        self.document = document
    }

    /// Problems with `value` under `#/definitions/<definition>`; empty when it conforms.
    public func validate(_ value: JSONValue, definition: String) -> [String] {
        guard let schema = document["definitions"]?[definition] else {
            return ["no definition \(definition) in the schema"]
        }
        return validate(value, against: schema)
    }

    /// Problems with `value` under `schema`; empty when it conforms.
    public func validate(_ value: JSONValue, against schema: JSONValue) -> [String] {
        var problems: [String] = []
        check(value, schema, path: "", into: &problems, depth: 0)
        return problems
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, path: String, into problems: inout [String], depth: Int)
    {
        let at = path.isEmpty ? "/" : path
        guard depth < 64 else {
            problems.append("\(at): schema nesting too deep")
            return
        }
        if case .bool(let accepts) = schema {
            if !accepts { problems.append("\(at): no value is allowed here") }
            return
        }
        guard let keywords = schema.objectValue else { return }

        if let reference = keywords["$ref"]?.stringValue {
            guard let target = resolve(reference) else {
                problems.append("\(at): unresolvable $ref \(reference)")
                return
            }
            check(value, target, path: path, into: &problems, depth: depth + 1)
        }
        if let type = keywords["type"], !matches(value, type: type) {
            problems.append("\(at): expected type \(type), got \(Self.typeName(of: value))")
            return
        }
        if let constant = keywords["const"], !Self.equal(value, constant) {
            problems.append("\(at): must equal \(constant)")
        }
        if let options = keywords["enum"]?.arrayValue, !options.contains(where: { Self.equal(value, $0) }) {
            problems.append("\(at): \(value) is not one of \(JSONValue.array(options))")
        }
        if let branches = keywords["anyOf"]?.arrayValue {
            let passing = branches.filter { validate(value, against: $0).isEmpty }
            if passing.isEmpty {
                problems.append("\(at): matches no anyOf branch (\(closestFailure(value, branches)))")
            }
        }
        if let branches = keywords["oneOf"]?.arrayValue {
            let passing = branches.filter { validate(value, against: $0).isEmpty }.count
            if passing != 1 {
                let detail = passing == 0 ? closestFailure(value, branches) : "\(passing) branches match"
                problems.append("\(at): must match exactly one oneOf branch (\(detail))")
            }
        }
        if let forbidden = keywords["not"], validate(value, against: forbidden).isEmpty {
            problems.append("\(at): matches a combination the schema forbids (not \(forbidden))")
        }
        switch value {
        case .string(let text): checkString(text, keywords, at: at, into: &problems)
        case .int, .double: checkNumber(value, keywords, at: at, into: &problems)
        case .array(let items): checkArray(items, keywords, path: path, into: &problems, depth: depth)
        case .object(let members): checkObject(members, keywords, path: path, into: &problems, depth: depth)
        case .null, .bool: break
        }
    }

    private func checkString(_ text: String, _ keywords: JSONObject, at: String, into problems: inout [String]) {
        let length = text.unicodeScalars.count
        if let minimum = keywords["minLength"]?.intValue, length < minimum {
            problems.append("\(at): shorter than \(minimum) characters")
        }
        if let maximum = keywords["maxLength"]?.intValue, length > maximum {
            problems.append("\(at): longer than \(maximum) characters")
        }
        if let pattern = keywords["pattern"]?.stringValue, !Self.matches(text, pattern: pattern) {
            problems.append("\(at): does not match pattern \(pattern)")
        }
    }

    private func checkNumber(
        _ value: JSONValue, _ keywords: JSONObject, at: String, into problems: inout [String]
    ) {
        guard let number = value.doubleValue else { return }
        if let minimum = keywords["minimum"]?.doubleValue, number < minimum {
            problems.append("\(at): \(value) is below the minimum \(minimum)")
        }
        if let maximum = keywords["maximum"]?.doubleValue, number > maximum {
            problems.append("\(at): \(value) is above the maximum \(maximum)")
        }
    }

    private func checkArray(
        _ items: [JSONValue], _ keywords: JSONObject, path: String,
        into problems: inout [String], depth: Int
    ) {
        let at = path.isEmpty ? "/" : path
        if let minimum = keywords["minItems"]?.intValue, items.count < minimum {
            problems.append("\(at): fewer than \(minimum) items")
        }
        if let maximum = keywords["maxItems"]?.intValue, items.count > maximum {
            problems.append("\(at): more than \(maximum) items")
        }
        if keywords["uniqueItems"]?.boolValue == true {
            for (index, item) in items.enumerated() where items[..<index].contains(where: { Self.equal($0, item) }) {
                problems.append("\(at): item \(index) is a duplicate")
            }
        }
        if let itemSchema = keywords["items"] {
            if let tuple = itemSchema.arrayValue {
                for (index, schema) in tuple.enumerated() where index < items.count {
                    check(items[index], schema, path: "\(path)/\(index)", into: &problems, depth: depth + 1)
                }
            } else {
                for (index, item) in items.enumerated() {
                    check(item, itemSchema, path: "\(path)/\(index)", into: &problems, depth: depth + 1)
                }
            }
        }
    }

    private func checkObject(
        _ members: JSONObject, _ keywords: JSONObject, path: String,
        into problems: inout [String], depth: Int
    ) {
        let at = path.isEmpty ? "/" : path
        for name in keywords["required"]?.stringArrayValue ?? [] where members[name] == nil {
            problems.append("\(at): missing required property \"\(name)\"")
        }
        if let minimum = keywords["minProperties"]?.intValue, members.count < minimum {
            problems.append("\(at): fewer than \(minimum) properties")
        }
        if let maximum = keywords["maxProperties"]?.intValue, members.count > maximum {
            problems.append("\(at): more than \(maximum) properties")
        }
        if let nameSchema = keywords["propertyNames"] {
            for name in members.keys.sorted() where !validate(.string(name), against: nameSchema).isEmpty {
                problems.append("\(at): property name \"\(name)\" is not allowed")
            }
        }
        let properties = keywords["properties"]?.objectValue ?? [:]
        let patterns = keywords["patternProperties"]?.objectValue ?? [:]
        for name in members.keys.sorted() {
            guard let member = members[name] else { continue }
            var covered = false
            if let schema = properties[name] {
                covered = true
                check(member, schema, path: "\(path)/\(name)", into: &problems, depth: depth + 1)
            }
            for (pattern, schema) in patterns where Self.matches(name, pattern: pattern) {
                covered = true
                check(member, schema, path: "\(path)/\(name)", into: &problems, depth: depth + 1)
            }
            guard !covered, let additional = keywords["additionalProperties"] else { continue }
            if case .bool(false) = additional {
                problems.append("\(at): unexpected property \"\(name)\"")
            } else {
                check(member, additional, path: "\(path)/\(name)", into: &problems, depth: depth + 1)
            }
        }
    }

    /// The branch failure with the fewest problems, to explain an anyOf/oneOf miss.
    private func closestFailure(_ value: JSONValue, _ branches: [JSONValue]) -> String {
        let failures = branches.map { validate(value, against: $0) }.filter { !$0.isEmpty }
        return failures.min { $0.count < $1.count }?.joined(separator: "; ") ?? "no branches"
    }

    /// Resolves `#/a/b` JSON pointers inside ``document``.
    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node = document
        for token in reference.dropFirst().split(separator: "/") {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let array = node.arrayValue, let index = Int(key), array.indices.contains(index) {
                node = array[index]
            } else if let next = node[key] {
                node = next
            } else {
                return nil
            }
        }
        return node
    }

    private func matches(_ value: JSONValue, type: JSONValue) -> Bool {
        if let names = type.arrayValue { return names.contains { matches(value, type: $0) } }
        switch (type.stringValue, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .int): return true
        case ("integer", .double(let number)): return number.rounded() == number
        case ("number", .int), ("number", .double): return true
        default: return false
        }
    }

    private static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// JSON equality: numbers compare by value (`1` equals `1.0`).
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        if let left = lhs.doubleValue, let right = rhs.doubleValue, lhs.boolValue == nil, rhs.boolValue == nil {
            return left == right
        }
        switch (lhs, rhs) {
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }

    private static func matches(_ text: String, pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }
}
