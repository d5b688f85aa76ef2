import OpenClawProtocol

/// The assistant message being built by a run, part by part, in the order the agent produced them.
struct AssistantDraft: Sendable {
    enum Part: Sendable {
        case thinking(String)
        case text(String)
        case toolCall(id: String, name: String, arguments: JSONValue)
    }

    private(set) var parts: [Part] = []

    var isEmpty: Bool { parts.isEmpty }

    /// The text of this message so far (what `assistant` agent events call `text`).
    var text: String {
        parts.reduce(into: "") { result, part in
            if case .text(let text) = part { result += text }
        }
    }

    mutating func appendThinking(_ chunk: String) {
        if case .thinking(let existing)? = parts.last {
            parts[parts.count - 1] = .thinking(existing + chunk)
        } else {
            parts.append(.thinking(chunk))
        }
    }

    mutating func appendText(_ chunk: String) {
        if case .text(let existing)? = parts.last {
            parts[parts.count - 1] = .text(existing + chunk)
        } else {
            parts.append(.text(chunk))
        }
    }

    /// Replaces every text part with one holding `text`, where the first text part was.
    mutating func replaceText(_ text: String) {
        let firstText = parts.firstIndex { if case .text = $0 { return true } else { return false } }
        parts.removeAll { if case .text = $0 { return true } else { return false } }
        parts.insert(.text(text), at: min(firstText ?? parts.count, parts.count))
    }

    mutating func appendToolCall(id: String, name: String, arguments: JSONValue) {
        parts.append(.toolCall(id: id, name: name, arguments: arguments))
    }

    /// The content blocks as a transcript stores them.
    var content: [JSONValue] {
        parts.map { part in
            switch part {
            case .thinking(let text): return ["type": "thinking", "thinking": .string(text)]
            case .text(let text): return ["type": "text", "text": .string(text)]
            case .toolCall(let id, let name, let arguments):
                return ["type": "toolCall", "id": .string(id), "name": .string(name), "arguments": arguments]
            }
        }
    }
}

/// A chat run in progress: who started it, where it streams, and what has been said so far.
struct ChatRun: Sendable {
    let runId: String
    /// The `sessionKey` string exactly as `chat.send` gave it (abort compares against it).
    let rawSessionKey: String
    let sessionKey: String
    let ownerConnection: Int
    let ownerDevice: String?
    let silent: Bool
    var task: Task<Void, Never>?
    /// Per-run counter of agent events (`seq` of agent and chat payloads).
    var agentSeq = 0
    /// All visible text of the run: what chat deltas and the final carry.
    var chatText = ""
    /// v4: the text last put on the wire, to derive `deltaText` and `replace`.
    var wireText = ""
    var draft = AssistantDraft()
    var toolCalls = 0
    /// Broadcast frames sent for this run (drop fault).
    var broadcastFrames = 0
    var dropFired = false

    mutating func nextSeq() -> Int {
        agentSeq += 1
        return agentSeq
    }
}
