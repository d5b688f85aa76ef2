/// The encoding side of ``ChatMessage``: the wire shape that ``ChatMessage/init(json:)`` reads.
///
/// Used to keep a message whole where it must outlive the process (the SQLite store writes it as
/// JSON text), so every modelled field survives: `ChatMessage(json: message.json) == message`.
/// Canonical spellings only (`toolCallId`, `input`, `totalTokens` …), absent optionals left out.
/// Blank strings in fields the decoder reads as `NonEmptyString` come back as nil, as they would
/// from the gateway.
extension ChatMessage {
    public var json: JSONValue {
        .object(dropping: [
            ("role", .string(role.wireValue)), ("content", .array(content.map(\.json))),
            ("timestamp", .int(timestampMs)), ("__openclaw", entry?.json),
            ("errorMessage", .string(errorMessage)), ("stopReason", .string(stopReason)),
            ("usage", usage?.json), ("openclawAbort", abort?.json),
            ("toolCallId", .string(toolCallId)), ("toolName", .string(toolName)), ("isError", .bool(isError)),
            ("provider", .string(provider)), ("model", .string(model)), ("senderLabel", .string(senderLabel)),
        ])
    }
}

extension ChatContentPart {
    /// The block as the gateway writes it. An ``other(type:raw:)`` block is written as it was read
    /// (its `type` member set to `type` if the raw object lacks it), so unknown blocks survive.
    public var json: JSONValue {
        switch self {
        case .text(let text):
            return ["type": "text", "text": .string(text)]
        case .thinking(let text):
            return ["type": "thinking", "thinking": .string(text)]
        case .toolCall(let id, let name, let arguments):
            return .object(dropping: [
                ("type", "toolCall"), ("id", .string(id)), ("name", .string(name)), ("arguments", arguments),
            ])
        case .image(let part):
            return .object(dropping: [("type", JSONValue?.some("image"))] + part.jsonMembers)
        case .file(let part):
            return .object(dropping: [("type", JSONValue?.some("file"))] + part.jsonMembers)
        case .other(let type, let raw):
            guard var members = raw.objectValue else { return ["type": .string(type)] }
            if members["type"] == nil, !type.isEmpty { members["type"] = .string(type) }
            return .object(members)
        }
    }
}

extension ChatUsage {
    /// The gateway's spelling (`input`, `output`, `cacheRead`, `cacheWrite`, `totalTokens`,
    /// `cost.total`).
    public var json: JSONValue {
        .object(dropping: [
            ("input", .int(inputTokens)),
            ("output", .int(outputTokens)),
            ("cacheRead", .int(cacheReadTokens)),
            ("cacheWrite", .int(cacheWriteTokens)),
            ("totalTokens", .int(totalTokens)),
            ("cost", costTotal.map { ["total": .double($0)] }),
        ])
    }
}

extension ChatTranscriptEntryInfo {
    /// The `__openclaw` object; `truncated` only when true, as the gateway writes it.
    public var json: JSONValue {
        .object(dropping: [
            ("id", .string(id)),
            ("seq", .int(seq)),
            ("kind", .string(kind)),
            ("truncated", truncated ? JSONValue?.some(.bool(true)) : JSONValue?.none),
            ("tokensBefore", .int(tokensBefore)), ("tokensAfter", .int(tokensAfter)),
        ])
    }
}

extension ChatAbortMarker {
    /// The `openclawAbort` object: `aborted: true` plus what is known.
    public var json: JSONValue {
        .object(dropping: [("aborted", .bool(true)), ("origin", .string(origin)), ("runId", .string(runId))])
    }
}
