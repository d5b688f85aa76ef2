/// Who wrote a transcript message.
///
/// Transcripts written by different agent runtimes spell the tool-result role differently
/// (`toolResult`, `tool`, `tool_result`, `function`); all of them read as ``toolResult``.
public enum ChatRole: Sendable, Hashable {
    case user
    case assistant
    case toolResult
    case system
    case other(String)

    public init(wireValue: String) {
        switch wireValue {
        case "user": self = .user
        case "assistant": self = .assistant
        case "toolResult", "tool", "tool_result", "function": self = .toolResult
        case "system": self = .system
        default: self = .other(wireValue)
        }
    }

    /// The canonical spelling, as the gateway writes it.
    public var wireValue: String {
        switch self {
        case .user: return "user"
        case .assistant: return "assistant"
        case .toolResult: return "toolResult"
        case .system: return "system"
        case .other(let value): return value
        }
    }
}
