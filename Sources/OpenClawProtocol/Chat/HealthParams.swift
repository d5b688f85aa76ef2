/// `health {}`: the gateway's own health report, as it sends it; a cheap round trip for probes and
/// benchmarks.
public struct HealthParams: GatewayMethod, Hashable {
    public typealias Response = JSONValue
    public static let method = GatewayMethodName.health
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)

    public init() {}

    public var json: JSONValue { .object([:]) }

    public func response(from payload: JSONValue?) -> JSONValue? { payload ?? .null }
}

extension ChatHistoryParams: GatewayMethod {
    /// The page (a catch-up read is ``ChatHistoryCatchUpParams``, whose answer differs).
    public typealias Response = ChatHistoryPage
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    /// A gateway that does not echo the session key answered for the one asked about.
    public func response(from payload: JSONValue?) -> ChatHistoryPage? {
        ChatHistoryPage(json: payload, requestedSessionKey: sessionKey)
    }
}
