/// The chat methods as typed calls (``GatewayMethod``): each params type names its answer and who may
/// call it, so `GatewayConnection.call(_:)` returns the answer typed and `ChatClient` is a list of
/// calls with their timeouts.
extension ChatSendParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.write)
    /// The run's ack, or a stop command's answer; read with the key this send used.
    public func response(from payload: JSONValue?) -> ChatSendResult? {
        ChatSendResult(json: payload, idempotencyKey: idempotencyKey)
    }
}

extension ChatAbortParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.write)
    public func response(from payload: JSONValue?) -> ChatAbortResult? { ChatAbortResult(json: payload) }
}

extension ChatMessageGetParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public func response(from payload: JSONValue?) -> ChatMessageGetResult? { ChatMessageGetResult(json: payload) }
}

extension SessionsListParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public func response(from payload: JSONValue?) -> SessionsListResult? { SessionsListResult(json: payload) }
}

extension ModelsListParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public func response(from payload: JSONValue?) -> ModelsListResult? { ModelsListResult(json: payload) }
}

extension SessionModelPatchParams: GatewayMethod {
    /// v4 lets `operator.write` set the model; a v3 gateway asks for `operator.admin`.
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.write)
    public func response(from payload: JSONValue?) -> SessionModelPatchResult? {
        SessionModelPatchResult(json: payload)
    }
}

extension SessionResetParams: GatewayMethod {
    public typealias Response = GatewayAcknowledgement
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.admin)
    /// Any object: the reset's details are not read, but an answer that is not one is no answer.
    public func response(from payload: JSONValue?) -> GatewayAcknowledgement? {
        payload?.objectValue == nil ? nil : GatewayAcknowledgement()
    }
}

extension SessionsSubscribeParams: GatewayMethod {
    public typealias Response = GatewayAcknowledgement
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
}

extension CommandsListParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public func response(from payload: JSONValue?) -> CommandsListResult? { CommandsListResult(json: payload) }
}

extension AgentIdentityParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public func response(from payload: JSONValue?) -> AgentIdentity? { AgentIdentity(json: payload) }
}

/// `chat.history` with a tail page's `deltaCursor`: the same method as ``ChatHistoryParams`` with a
/// different answer (what was stored since, or `reset`), so a type of its own. Only for a cursor a page
/// of the same gateway gave; older gateways have none and refuse the field.
public struct ChatHistoryCatchUpParams: GatewayMethod, Hashable {
    public typealias Response = ChatHistoryCatchUp
    public static let method = GatewayMethodName.chatHistory
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public var sessionKey: String
    /// The page's opaque `deltaCursor`, as it came.
    public var cursor: String
    /// Per-text-field truncation, as for a page.
    public var maxChars: Int?

    public init(sessionKey: String, cursor: String, maxChars: Int? = nil) {
        self.sessionKey = sessionKey
        self.cursor = cursor
        self.maxChars = maxChars
    }

    /// Without `limit`: the catch-up is bounded by the gateway, not the client.
    public var json: JSONValue {
        .object(dropping: [
            ("sessionKey", .string(sessionKey)), ("cursor", .string(cursor)),
            (
                "maxChars",
                .int(maxChars.map { Swift.min($0, ChatHistoryParams.maximumMaxChars) }.flatMap { $0 >= 1 ? $0 : nil })
            ),
        ])
    }

    public func response(from payload: JSONValue?) -> ChatHistoryCatchUp? { ChatHistoryCatchUp(json: payload) }
}

extension ArtifactsDownloadParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.read)
    public func response(from payload: JSONValue?) -> ArtifactsDownloadResult? {
        ArtifactsDownloadResult(json: payload)
    }
}
