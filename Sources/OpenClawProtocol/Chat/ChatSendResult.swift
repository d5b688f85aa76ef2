/// What `chat.send` answered, in either documented shape: a run's ack, or — when the message was a
/// stop command (`/stop`, "stop", "wait" …) — the abort result `{ok, aborted, runIds}`, which has no
/// run id: no run started and nothing was stored (`gateway-protocol-v3.md` §5.3).
public enum ChatSendResult: Sendable, Hashable {
    case run(ChatSendAck)
    case stopCommand(ChatAbortResult)

    /// Nil when the payload is neither shape. With `idempotencyKey`, an ack that does not echo the run id
    /// (third-party gateways) is read as the ack of that run.
    public init?(json: JSONValue?, idempotencyKey: String? = nil) {
        if let ack = ChatSendAck(json: json, idempotencyKey: idempotencyKey) {
            self = .run(ack)
        } else if let stop = ChatAbortResult(json: json) {
            self = .stopCommand(stop)
        } else {
            return nil
        }
    }
}
