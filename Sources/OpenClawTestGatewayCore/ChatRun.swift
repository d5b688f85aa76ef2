import OpenClawProtocol

/// The assistant message being built by a run, part by part, in the order the agent produced them.
///
/// Texts grow in place (appending to one buffer), so a reply streamed in 20,000 chunks stays linear.
struct AssistantDraft: Sendable {
    enum Part: Sendable {
        /// Index into `buffers`.
        case thinking(Int)
        case text(Int)
        case toolCall(id: String, name: String, arguments: JSONValue)
        /// A block kept as it is (a generated image).
        case block(JSONValue)
    }

    private(set) var parts: [Part] = []
    private var buffers: [String] = []
    /// The text of this message so far (what `assistant` agent events call `text`).
    private(set) var text = ""
    /// The reasoning of the latest thinking part.
    private(set) var thinking = ""

    var isEmpty: Bool { parts.isEmpty }

    mutating func appendThinking(_ chunk: String) {
        if case .thinking(let index)? = parts.last {
            buffers[index].append(chunk)
            thinking.append(chunk)
        } else {
            buffers.append(chunk)
            parts.append(.thinking(buffers.count - 1))
            thinking = chunk
        }
    }

    mutating func appendText(_ chunk: String) {
        text.append(chunk)
        if case .text(let index)? = parts.last {
            buffers[index].append(chunk)
        } else {
            buffers.append(chunk)
            parts.append(.text(buffers.count - 1))
        }
    }

    /// Replaces every text part with one holding `newText`, where the first text part was.
    mutating func replaceText(_ newText: String) {
        let firstText = parts.firstIndex { if case .text = $0 { return true } else { return false } }
        parts.removeAll { if case .text = $0 { return true } else { return false } }
        buffers.append(newText)
        parts.insert(.text(buffers.count - 1), at: min(firstText ?? parts.count, parts.count))
        text = newText
    }

    mutating func appendBlock(_ block: JSONValue) {
        parts.append(.block(block))
    }

    mutating func appendToolCall(id: String, name: String, arguments: JSONValue) {
        parts.append(.toolCall(id: id, name: name, arguments: arguments))
    }

    /// The content blocks as a transcript stores them.
    var content: [JSONValue] {
        parts.map { part in
            switch part {
            case .thinking(let index): return ["type": "thinking", "thinking": .string(buffers[index])]
            case .text(let index): return ["type": "text", "text": .string(buffers[index])]
            case .toolCall(let id, let name, let arguments):
                return ["type": "toolCall", "id": .string(id), "name": .string(name), "arguments": arguments]
            case .block(let block): return block
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
    /// Order of starting among all runs (the latest in-flight run of a session is its `inFlightRun`).
    let ordinal: Int
    var task: Task<Void, Never>?
    /// Per-run counter of agent events (`seq` of agent and chat payloads).
    var agentSeq = 0
    /// The run's live visible text: what chat deltas describe (after a mid-run commit, only the text
    /// since).
    private(set) var chatText = ""
    /// Text committed to the transcript mid-run (late v4); the final carries it plus ``chatText``.
    private(set) var committedText = ""
    /// Bumped on every change of ``chatText``; compared with ``wireRevision`` instead of the texts, so
    /// a reply streamed in 20,000 chunks stays linear.
    private(set) var textRevision = 0
    private(set) var wireRevision = 0
    /// UTF-8 length of the text the last delta left on the wire.
    private(set) var wireUTF8Count = 0
    /// Whether that text is still a prefix of ``chatText`` (no rewrite since).
    private(set) var wireIsPrefix = true
    private(set) var lastDeltaAtMs: Int?
    var draft = AssistantDraft()
    var toolCalls = 0
    /// Broadcast frames sent for this run (drop fault).
    var broadcastFrames = 0
    var dropFired = false
    /// An event held back by the reorder fault, sent after the next one.
    var heldBack: (event: String, payload: JSONValue)?

    mutating func appendLiveText(_ chunk: String) {
        guard !chunk.isEmpty else { return }
        chatText.append(chunk)
        textRevision += 1
    }

    mutating func replaceLiveText(_ text: String) {
        guard text != chatText else { return }
        if wireIsPrefix {
            wireIsPrefix = text.utf8.starts(with: chatText.utf8.prefix(wireUTF8Count))
        }
        chatText = text
        textRevision += 1
    }

    /// Moves the live text to ``committedText`` and restarts it empty.
    mutating func commitLiveText() {
        committedText += chatText
        replaceLiveText("")
    }

    mutating func markOnWire(atMs now: Int) {
        wireRevision = textRevision
        wireUTF8Count = chatText.utf8.count
        wireIsPrefix = true
        lastDeltaAtMs = now
    }

    mutating func nextSeq() -> Int {
        agentSeq += 1
        return agentSeq
    }
}
