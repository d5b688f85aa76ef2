/// `chat.abort` params. Without a run id every abortable run of the session stops.
///
/// The gateway compares `sessionKey` with the exact string the run was sent with (no alias
/// resolution), so pass the key used in `chat.send`.
public struct ChatAbortParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.chatAbort

    public var sessionKey: String
    public var runId: String?

    public init(sessionKey: String, runId: String? = nil) {
        self.sessionKey = sessionKey
        self.runId = runId
    }

    public var json: JSONValue {
        .object(dropping: [("sessionKey", .string(sessionKey)), ("runId", .string(runId.nilIfBlank))])
    }
}
