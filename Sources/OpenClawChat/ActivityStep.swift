import OpenClawProtocol

/// One thing the agent did on the way to a reply: a stretch of thinking or a tool call.
///
/// Built from `agent` events while a run streams (with gateway timestamps, hence durations) and
/// from the `thinking` / `toolCall` blocks and tool results of history otherwise.
public struct ActivityStep: Sendable, Hashable, Identifiable {
    /// The tool call id for tool steps; a position-based id for thinking steps.
    public let id: String
    /// Thinking, or a tool call with the tool's name.
    public internal(set) var kind: ActivityKind
    /// Running, or how it ended.
    public internal(set) var status: ActivityStatus
    /// Gateway time the step began and ended, epoch ms; nil when unknown.
    public internal(set) var startedAtMs: Int?
    public internal(set) var endedAtMs: Int?
    /// The tool's arguments as the model produced them; nil for thinking steps.
    public internal(set) var arguments: JSONValue?
    /// What the tool returned, as text cut to ``ToolResultText/limit`` characters; nil while running,
    /// for thinking steps, and when the gateway left the result out (it strips results unless the
    /// session is verbose).
    public internal(set) var result: String?
    var thinking: TextBuffer

    init(
        id: String,
        kind: ActivityKind,
        status: ActivityStatus,
        startedAtMs: Int? = nil,
        endedAtMs: Int? = nil,
        arguments: JSONValue? = nil,
        result: String? = nil,
        thinking: String = ""
    ) {
        self.id = id
        self.kind = kind
        self.status = status
        self.startedAtMs = startedAtMs
        self.endedAtMs = endedAtMs
        self.arguments = arguments
        self.result = result
        self.thinking = TextBuffer(thinking)
    }

    /// Elapsed gateway time, when both ends are known.
    public var durationMs: Int? {
        guard let startedAtMs, let endedAtMs else { return nil }
        return max(0, endedAtMs - startedAtMs)
    }

    /// The reasoning text of a thinking step; empty for tool steps.
    public var thinkingText: String { thinking.text }

    /// One readable line: `exec: curl -s https://…` for a tool, the first line of the reasoning for
    /// thinking (or just `Thinking`).
    public func summary(limit: Int = ToolCallSummary.defaultLimit) -> String {
        switch kind {
        case .tool(let name):
            return ToolCallSummary.line(name: name, arguments: arguments, limit: limit)
        case .thinking:
            let head = thinking.prefix(utf8Limit: limit * 4 + 4)
            let firstLine = head.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
            guard let firstLine else { return "Thinking" }
            let line = ToolCallSummary.collapsingWhitespace(String(firstLine), maxCharacters: limit + 1)
            return ToolCallSummary.truncated(line.filter { $0 != "\u{FFFD}" }, limit: limit)
        }
    }

    mutating func finish(_ status: ActivityStatus, at time: Int?) {
        guard self.status == .running else { return }
        self.status = status
        if endedAtMs == nil { endedAtMs = time }
    }
}

/// What an ``ActivityStep`` is.
public enum ActivityKind: Sendable, Hashable {
    /// The model reasoning before it answers.
    case thinking
    /// A tool call, such as `exec` or `read`.
    case tool(name: String)
}

/// Where an ``ActivityStep`` stands.
public enum ActivityStatus: Sendable, Hashable {
    /// Still going.
    case running
    /// Finished; for a tool, without an error.
    case succeeded
    /// The tool reported an error, or the step never finished (its run stopped or failed first).
    case failed
}
