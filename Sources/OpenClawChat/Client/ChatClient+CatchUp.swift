import OpenClawGateway
import OpenClawProtocol

extension ChatClient {
    /// What was stored in a session after the tail page `cursor` came with (`chat.history` with the
    /// page's `deltaCursor`), or `reset` when that cannot be told. Only for a cursor a page of this very
    /// gateway gave: older gateways have none and refuse the field.
    public func catchUp(sessionKey: String, cursor: String) async throws(GatewayError) -> ChatHistoryCatchUp {
        try await connection.call(
            ChatHistoryCatchUpParams(sessionKey: sessionKey, cursor: cursor), timeout: timeouts.history)
    }

    /// One history message in full (`chat.message.get`), for a row the page cut short. Gateways from
    /// before summer 2026 do not have the method: ask ``supportsFullMessages`` first.
    public func fullMessage(sessionKey: String, messageId: String) async throws(GatewayError) -> ChatMessageGetResult {
        try await connection.call(
            ChatMessageGetParams(sessionKey: sessionKey, messageId: messageId), timeout: timeouts.history)
    }

    /// Whether the connected gateway lists `chat.message.get` in `hello-ok.features.methods`.
    public var supportsFullMessages: Bool {
        get async {
            guard let session = await connection.session else { return false }
            return session.hello.features.methods.contains(GatewayMethodName.chatMessageGet)
        }
    }
}
