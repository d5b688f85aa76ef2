/// The answer to `models.list`: the models the gateway can route to.
public struct ModelsListResult: Sendable, Hashable {
    public var models: [ModelChoice]

    public init(models: [ModelChoice]) { self.models = models }

    /// Rows without an id are skipped; nil only when the payload is not an object.
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        self.init(models: json["models"]?.arrayValue?.compactMap(ModelChoice.init(json:)) ?? [])
    }
}

/// One model a session can use.
public struct ModelChoice: Sendable, Hashable, Identifiable {
    public var id: String
    /// Display name; the id when the gateway sent none.
    public var name: String
    public var provider: String
    public var alias: String?
    public var contextWindow: Int?
    /// Whether the model supports reasoning (thinking levels).
    public var reasoning: Bool?

    public init(
        id: String,
        name: String,
        provider: String,
        alias: String? = nil,
        contextWindow: Int? = nil,
        reasoning: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.provider = provider
        self.alias = alias
        self.contextWindow = contextWindow
        self.reasoning = reasoning
    }

    public init?(json: JSONValue) {
        guard let id = json["id"]?.nonEmptyStringValue else { return nil }
        self.init(
            id: id,
            name: json["name"]?.nonEmptyStringValue ?? id,
            provider: json["provider"]?.stringValue ?? "",
            alias: json["alias"]?.nonEmptyStringValue,
            contextWindow: json["contextWindow"]?.lenientIntValue,
            reasoning: json["reasoning"]?.boolValue
        )
    }
}
