import OpenClawProtocol

/// Indented JSON with sorted keys, for files people read and edit (the approvals file).
enum PrettyJSON {
    static func string(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + string($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members) where !members.isEmpty:
            let lines = members.keys.sorted().map { key in
                inner + JSONSerializer.string(.string(key)) + ": " + string(members[key] ?? .null, indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        default:
            return JSONSerializer.string(value)
        }
    }
}
