/// `sessions.patch` for the one setting the clients change: a session's model. `model: null` goes back to
/// the gateway's default (the schema lets every patched value be `null` to clear it). v4 lets
/// `operator.write` patch the model; v3 needs `operator.admin` for any patch.
public struct SessionModelPatchParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.sessionsPatch

    public var key: String
    /// A model id as `models.list` gives it; nil clears the override.
    public var model: String?

    public init(key: String, model: String?) {
        self.key = key
        self.model = model
    }

    public var json: JSONValue {
        .object(["key": .string(key), "model": model.map { .string($0) } ?? .null])
    }
}

/// The answer to a model patch: the model the gateway now uses for the session, when it says.
public struct SessionModelPatchResult: Sendable, Hashable {
    public var key: String?
    public var resolvedModel: String?
    public var resolvedProvider: String?

    /// Nil only when the payload is not an object.
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        key = json["key"]?.nonEmptyStringValue
        resolvedModel = json["resolved"]?["model"]?.nonEmptyStringValue
        resolvedProvider = json["resolved"]?["modelProvider"]?.nonEmptyStringValue
    }
}
