import OpenClawProtocol

/// Reads typed fields out of an invoke's params object, with `INVALID_REQUEST` errors that name the
/// field. Unknown fields are ignored (gateways add fields over time).
public struct NodeParamReader: Sendable {
    public let object: JSONObject

    /// Absent params count as `{}`; anything but an object is a bad request.
    public init(_ json: JSONValue?) throws(NodeInvokeError) {
        guard let json, !json.isNull else {
            object = [:]
            return
        }
        guard let members = json.objectValue else { throw .invalidParams("params must be an object") }
        object = members
    }

    private func present(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// Whether the field is there at all (and not `null`), whatever its type.
    public func has(_ key: String) -> Bool { present(key) != nil }

    public func string(_ key: String) throws(NodeInvokeError) -> String? {
        guard let value = present(key) else { return nil }
        guard let text = value.stringValue else { throw .invalidParams("\(key) must be a string") }
        return text
    }

    public func requiredString(_ key: String) throws(NodeInvokeError) -> String {
        guard let text = try string(key), !text.isEmpty else { throw .invalidParams("\(key) is required") }
        return text
    }

    public func int(_ key: String) throws(NodeInvokeError) -> Int? {
        guard let value = present(key) else { return nil }
        if let number = value.intValue { return number }
        if let number = value.doubleValue, number.isFinite, number.rounded() == number, abs(number) < 1e15 {
            return Int(number)
        }
        throw .invalidParams("\(key) must be an integer")
    }

    public func bool(_ key: String) throws(NodeInvokeError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard let flag = value.boolValue else { throw .invalidParams("\(key) must be a boolean") }
        return flag
    }

    public func strings(_ key: String) throws(NodeInvokeError) -> [String]? {
        guard let value = present(key) else { return nil }
        guard let items = value.stringArrayValue else { throw .invalidParams("\(key) must be an array of strings") }
        return items
    }

    public func stringMap(_ key: String) throws(NodeInvokeError) -> [String: String]? {
        guard let value = present(key) else { return nil }
        guard let members = value.objectValue else { throw .invalidParams("\(key) must be an object") }
        var result: [String: String] = [:]
        for (name, member) in members {
            guard let text = member.stringValue else { throw .invalidParams("\(key).\(name) must be a string") }
            result[name] = text
        }
        return result
    }
}
