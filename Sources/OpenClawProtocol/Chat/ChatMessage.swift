/// One transcript message, as `chat.history` returns it and as `chat` events carry it.
///
/// Decoded leniently: content may be a plain string or a list of blocks, the timestamp epoch
/// milliseconds or ISO 8601, and every field but the role may be missing. Fields the gateway strips
/// from history (`details`, image bytes, signatures) are not modelled.
public struct ChatMessage: Sendable, Hashable {
    public var role: ChatRole
    /// The blocks in order. A plain-string content becomes one ``ChatContentPart/text(_:)`` block.
    public var content: [ChatContentPart]
    /// Epoch milliseconds.
    public var timestampMs: Int?
    /// The gateway's `__openclaw` transcript bookkeeping.
    public var entry: ChatTranscriptEntryInfo?
    /// Why an assistant message failed (`stopReason` is then `error`).
    public var errorMessage: String?
    /// `stop`, `length`, `toolUse`, `error` or `aborted` for assistant messages.
    public var stopReason: String?
    public var usage: ChatUsage?
    /// Set on the partial reply the gateway stored when a run was aborted.
    public var abort: ChatAbortMarker?
    /// For tool results: the `toolCall` block this message answers.
    public var toolCallId: String?
    public var toolName: String?
    public var isError: Bool?
    public var provider: String?
    public var model: String?
    /// Who wrote a user message in a group session, when the gateway knows.
    public var senderLabel: String?

    public init(
        role: ChatRole,
        content: [ChatContentPart],
        timestampMs: Int? = nil,
        entry: ChatTranscriptEntryInfo? = nil
    ) {
        self.role = role
        self.content = content
        self.timestampMs = timestampMs
        self.entry = entry
    }

    /// Nil only when the value is not an object.
    ///
    /// Reads the members in one pass: a history page decodes a thousand of these, and a lookup per field
    /// (with the snake-case spellings some gateways use) hashed about twenty keys for the six or so a
    /// message has. Where two spellings are both present the camel-case one wins, as before.
    public init?(json: JSONValue?) {
        guard case .object(let members)? = json else { return nil }
        var role = ""
        var content: JSONValue?
        var timestamp: JSONValue?
        var ts: JSONValue?
        var entry: JSONValue?
        var usage: JSONValue?
        var abort: JSONValue?
        var fields = OptionalFields()
        for (key, value) in members {
            // An explicit null reads as absent, as the subscript reads it.
            if case .null = value { continue }
            switch key {
            case "role": role = value.stringValue ?? ""
            case "content": content = value
            case "timestamp": timestamp = value
            case "ts": ts = value
            case "__openclaw": entry = value
            case "usage": usage = value
            case "openclawAbort": abort = value
            default: fields.read(key, value)
            }
        }
        self.init(
            role: ChatRole(wireValue: role),
            content: Self.parts(of: content),
            timestampMs: WireTimestamp.epochMilliseconds(timestamp ?? ts),
            entry: ChatTranscriptEntryInfo(json: entry)
        )
        errorMessage = fields.errorMessage
        stopReason = fields.stopReason
        self.usage = ChatUsage(json: usage)
        self.abort = ChatAbortMarker(json: abort)
        toolCallId = fields.toolCallId ?? fields.snakeToolCallId
        toolName = fields.toolName ?? fields.snakeToolName ?? (self.role == .toolResult ? fields.name : nil)
        isError = fields.isError ?? fields.snakeIsError
        provider = fields.provider
        model = fields.model
        senderLabel = fields.senderLabel
    }

    /// The members ``init(json:)`` reads as plain values, each spelling kept apart until they are combined.
    private struct OptionalFields {
        var errorMessage: String?
        var stopReason: String?
        var toolCallId: String?
        var snakeToolCallId: String?
        var toolName: String?
        var snakeToolName: String?
        var name: String?
        var isError: Bool?
        var snakeIsError: Bool?
        var provider: String?
        var model: String?
        var senderLabel: String?

        mutating func read(_ key: String, _ value: JSONValue) {
            switch key {
            case "errorMessage": errorMessage = value.nonEmptyStringValue
            case "stopReason": stopReason = value.nonEmptyStringValue
            case "toolCallId": toolCallId = value.nonEmptyStringValue
            case "tool_call_id": snakeToolCallId = value.nonEmptyStringValue
            case "toolName": toolName = value.nonEmptyStringValue
            case "tool_name": snakeToolName = value.nonEmptyStringValue
            case "name": name = value.nonEmptyStringValue
            case "isError": isError = value.boolValue
            case "is_error": snakeIsError = value.boolValue
            case "provider": provider = value.nonEmptyStringValue
            case "model": model = value.nonEmptyStringValue
            case "senderLabel": senderLabel = value.nonEmptyStringValue
            default: break
            }
        }
    }

    private static func parts(of content: JSONValue?) -> [ChatContentPart] {
        switch content {
        case .string(let text)?: return [.text(text)]
        case .array(let blocks)?:
            return blocks.compactMap { block in
                if case .string(let text) = block { return .text(text) }
                return ChatContentPart(json: block)
            }
        default: return []
        }
    }

    /// Whether any block is text; a `chat` event snapshot counts only when it has one.
    public var hasText: Bool { content.contains { $0.text != nil } }

    /// The visible text: the text blocks joined by newlines (thinking and tool blocks excluded).
    public var text: String {
        var texts = content.lazy.compactMap(\.text).makeIterator()
        guard var joined = texts.next() else { return "" }
        while let next = texts.next() {
            joined += "\n"
            joined += next
        }
        return joined
    }

    /// A key that names this message across history fetches: the gateway's transcript entry id when
    /// present, else one derived from role, timestamp and content. Identical messages with the same
    /// timestamp share a derived key; callers that need uniqueness number the repeats.
    public var stableKey: String {
        if let id = entry?.id { return id }
        var hash = StableHash()
        hash.combine(role.wireValue)
        hash.combine(text)
        hash.combine(toolCallId ?? "")
        for case .toolCall(let id, let name, _) in content {
            hash.combine(id ?? "")
            hash.combine(name)
        }
        return "derived:\(role.wireValue):\(timestampMs.map(String.init) ?? "-"):\(hash.hexDigest)"
    }
}

/// The `__openclaw` object the gateway adds to every history message.
public struct ChatTranscriptEntryInfo: Sendable, Hashable {
    /// The transcript entry id: the stable identity of the message.
    public var id: String?
    /// 1-based position in the transcript file.
    public var seq: Int?
    /// `compaction` or `reset` for the gateway's synthetic divider rows.
    public var kind: String?
    /// True for a placeholder that replaced an oversized message.
    public var truncated: Bool
    /// For a `compaction` divider: the context size before and after, when the gateway's checkpoint
    /// recorded them.
    public var tokensBefore: Int?
    public var tokensAfter: Int?

    public init(
        id: String? = nil, seq: Int? = nil, kind: String? = nil, truncated: Bool = false,
        tokensBefore: Int? = nil, tokensAfter: Int? = nil
    ) {
        self.id = id
        self.seq = seq
        self.kind = kind
        self.truncated = truncated
        self.tokensBefore = tokensBefore
        self.tokensAfter = tokensAfter
    }

    init?(json: JSONValue?) {
        guard let json, json.objectValue != nil else { return nil }
        self.init(
            id: json["id"]?.nonEmptyStringValue,
            seq: json["seq"]?.lenientIntValue,
            kind: json["kind"]?.nonEmptyStringValue,
            truncated: json["truncated"]?.boolValue ?? false,
            tokensBefore: json["tokensBefore"]?.lenientIntValue.flatMap { $0 >= 0 ? $0 : nil },
            tokensAfter: json["tokensAfter"]?.lenientIntValue.flatMap { $0 >= 0 ? $0 : nil }
        )
    }
}

/// `openclawAbort`: marks the partial reply stored when a run was stopped.
public struct ChatAbortMarker: Sendable, Hashable {
    /// `rpc` (chat.abort) or `stop-command`.
    public var origin: String?
    public var runId: String?

    public init(origin: String? = nil, runId: String? = nil) {
        self.origin = origin
        self.runId = runId
    }

    init?(json: JSONValue?) {
        guard let json, json.objectValue != nil, json["aborted"]?.boolValue ?? true else { return nil }
        self.init(origin: json["origin"]?.nonEmptyStringValue, runId: json["runId"]?.nonEmptyStringValue)
    }
}

/// FNV-1a (64-bit): a hash that, unlike `Hasher`, is the same in every process, so derived keys, file
/// names and checksums stay stable across launches. Not for anything an attacker chooses to collide.
package struct StableHash {
    package static let standardOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    private var state: UInt64

    /// `offset` other than the standard one gives an independent hash (two make 128 bits).
    package init(offset: UInt64 = standardOffset) {
        state = offset
    }

    /// The bytes, then a separator, so that ("ab", "c") and ("a", "bc") differ.
    package mutating func combine(_ text: String) {
        combine(bytes: text.utf8)
        combine(bytes: CollectionOfOne(0xff))
    }

    /// The bytes as they are (no separator): plain FNV-1a of a byte string.
    package mutating func combine(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01b3
        }
    }

    /// 16 lower-case hex digits.
    package var hexDigest: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Plain FNV-1a of `bytes`, as 16 hex digits.
    package static func hex(of bytes: some Sequence<UInt8>) -> String {
        var hash = StableHash()
        hash.combine(bytes: bytes)
        return hash.hexDigest
    }
}
