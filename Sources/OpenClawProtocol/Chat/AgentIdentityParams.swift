/// `agent.identity.get` params: the agent by id, or the agent that owns a session. Both optional;
/// with neither the gateway answers for its default agent.
public struct AgentIdentityParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.agentIdentity

    public var agentId: String?
    public var sessionKey: String?

    public init(agentId: String? = nil, sessionKey: String? = nil) {
        self.agentId = agentId
        self.sessionKey = sessionKey
    }

    public var json: JSONValue {
        .object(dropping: [("agentId", .string(agentId.nilIfBlank)), ("sessionKey", .string(sessionKey.nilIfBlank))])
    }
}
