/// The answer to `agent.identity.get`: how the agent presents itself in a chat header.
public struct AgentIdentity: Sendable, Hashable {
    public var agentId: String?
    public var name: String?
    /// An avatar reference as the gateway gives it (URL, data URL or workspace path).
    public var avatar: String?
    public var emoji: String?

    public init(agentId: String? = nil, name: String? = nil, avatar: String? = nil, emoji: String? = nil) {
        self.agentId = agentId
        self.name = name
        self.avatar = avatar
        self.emoji = emoji
    }

    /// Nil only when the payload is not an object; every field is optional to a lenient reader.
    public init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        self.init(
            agentId: json["agentId"]?.nonEmptyStringValue,
            name: json["name"]?.nonEmptyStringValue,
            avatar: json["avatar"]?.nonEmptyStringValue,
            emoji: json["emoji"]?.nonEmptyStringValue
        )
    }
}
