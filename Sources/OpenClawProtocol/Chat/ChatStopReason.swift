/// Why the model stopped, as a history message's `stopReason` says it. Open: providers and gateway
/// versions add their own (`toolUse`, `length`, `rpc` …), which are kept and compared as they are.
public struct ChatStopReason: RawRepresentable, Sendable, Hashable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The run failed; the message's `errorMessage` says why.
    public static let error = ChatStopReason(rawValue: "error")
    /// The run was stopped (`chat.abort`, `/stop`).
    public static let aborted = ChatStopReason(rawValue: "aborted")
    /// The model finished its answer.
    public static let stop = ChatStopReason(rawValue: "stop")
}

extension ChatMessage {
    /// ``stopReason`` typed; nil when the message has none.
    public var stopReasonKind: ChatStopReason? { stopReason.map(ChatStopReason.init(rawValue:)) }
}
