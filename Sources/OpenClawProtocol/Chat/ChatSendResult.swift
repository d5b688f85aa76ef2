/// What `chat.send` answered, in either documented shape: a run's ack, or — when the message was a
/// stop command (`/stop`, "stop", "wait" …) — the abort result `{ok, aborted, runIds}`, which has no
/// run id: no run started and nothing was stored (`gateway-protocol-v3.md` §5.3).
public enum ChatSendResult: Sendable, Hashable {
    case run(ChatSendAck)
    case stopCommand(ChatAbortResult)

    /// Nil when the payload is neither shape.
    public init?(json: JSONValue?) {
        if let ack = ChatSendAck(json: json) {
            self = .run(ack)
        } else if let stop = ChatAbortResult(json: json) {
            self = .stopCommand(stop)
        } else {
            return nil
        }
    }
}
