import OpenClawProtocol

/// Deterministic wire data for the benchmarks: streamed replies and history pages, as gateways send them.
enum Fixtures {
    static let sessionKey = "agent:main:main"

    // MARK: Streamed replies

    /// Piece `index` of a long reply: 52 bytes of ASCII ending in a newline, so 20,000 pieces make
    /// a 1,040,000-byte reply.
    static func piece(_ index: Int) -> String {
        let number = String(index)
        let text =
            "part " + String(repeating: "0", count: max(0, 6 - number.count)) + number
            + ": the agent keeps writing its answer"
        return text + String(repeating: ".", count: max(0, 51 - text.utf8.count)) + "\n"
    }

    /// The whole reply that `count` pieces make.
    static func reply(pieces count: Int) -> String {
        var text = ""
        text.reserveCapacity(count * 52)
        for index in 0..<count { text += piece(index) }
        return text
    }

    /// `chat` event frames of one run as a v4 gateway sends them to a late client: `deltas` append-only
    /// `deltaText` deltas (no `message` snapshot), then a `final` with the whole reply. No frame `seq`
    /// (they are written outside the gateway's broadcast counter, like targeted events).
    static func v4Frames(runId: String, deltas: Int) -> [String] {
        var frames: [String] = []
        frames.reserveCapacity(deltas + 1)
        for index in 0..<deltas {
            let payload: JSONValue = [
                "runId": .string(runId), "sessionKey": .string(sessionKey), "seq": .int(index + 1), "state": "delta",
                "deltaText": .string(piece(index)),
            ]
            frames.append(FrameCodec.text(EventFrame(event: GatewayEventName.chat, payload: payload)))
        }
        frames.append(finalFrame(runId: runId, seq: deltas + 1, text: reply(pieces: deltas)))
        return frames
    }

    /// `chat` event frames of one run as a v3 gateway sends them: `deltas` deltas, each carrying the
    /// whole reply so far in `message` (cumulative), the last one `totalPieces` pieces long, then a
    /// `final`. Built by concatenation: the frames add up to about `deltas / 2` times the reply.
    static func v3Frames(runId: String, deltas: Int, totalPieces: Int) -> [String] {
        let piecesPerDelta = max(1, totalPieces / deltas)
        let head =
            #"{"event":"chat","payload":{"message":{"content":[{"text":""#
        let middle =
            #"","type":"text"}],"role":"assistant","timestamp":1767225600000},"runId":"\#(runId)","#
            + #""seq":"#
        let tail = #","sessionKey":"\#(sessionKey)","state":"delta"},"type":"event"}"#
        var escapedSoFar = ""
        escapedSoFar.reserveCapacity(totalPieces * 53)
        var frames: [String] = []
        frames.reserveCapacity(deltas + 1)
        var next = 0
        for index in 0..<deltas {
            let end = index == deltas - 1 ? totalPieces : next + piecesPerDelta
            while next < end {
                escapedSoFar += escaped(piece(next))
                next += 1
            }
            frames.append(head + escapedSoFar + middle + String(index + 1) + tail)
        }
        frames.append(finalFrame(runId: runId, seq: deltas + 1, text: reply(pieces: totalPieces)))
        return frames
    }

    static func finalFrame(runId: String, seq: Int, text: String) -> String {
        let payload: JSONValue = [
            "runId": .string(runId), "sessionKey": .string(sessionKey), "seq": .int(seq), "state": "final",
            "message": [
                "role": "assistant", "content": [["type": "text", "text": .string(text)]],
                "timestamp": 1_767_225_600_000,
            ],
        ]
        return FrameCodec.text(EventFrame(event: GatewayEventName.chat, payload: payload))
    }

    /// JSON string contents of `text`, without the quotes.
    static func escaped(_ text: String) -> String {
        let quoted = JSONSerializer.string(.string(text))
        return String(quoted.dropFirst().dropLast())
    }

    // MARK: History

    /// `count` messages of a working session, oldest first, as `chat.history` returns them: turns of a
    /// user question, an assistant message that thinks and calls a tool, the tool's result, and the
    /// assistant's answer (markdown with newlines, so the parser's escape path is exercised). About 1 KB
    /// of JSON per message. Turn `n` is the same in every call.
    static func historyMessages(count: Int, firstTurn: Int = 0, firstSeq: Int = 1) -> [JSONValue] {
        var messages: [JSONValue] = []
        messages.reserveCapacity(count)
        var turn = firstTurn
        let start = 1_767_225_600_000
        while messages.count < count {
            let time = start + turn * 60_000
            let callId = "call_\(turn)"
            let turnMessages: [JSONValue] = [
                [
                    "role": "user", "content": .string(question(turn)), "timestamp": .int(time),
                ],
                assistant(
                    content: [
                        ["type": "thinking", "thinking": .string(thinking(turn))],
                        [
                            "type": "toolCall", "id": .string(callId), "name": "exec",
                            "arguments": [
                                "command": .string("rg -n \"TODO\" Sources/Module\(turn % 17) --max-count 20"),
                                "workdir": "/home/user/project", "timeout": 30,
                            ],
                        ],
                    ],
                    stopReason: "toolUse", time: time + 2_000),
                [
                    "role": "toolResult", "toolCallId": .string(callId), "toolName": "exec",
                    "content": [["type": "text", "text": .string(toolOutput(turn))]], "isError": false,
                    "timestamp": .int(time + 3_500),
                ],
                assistant(
                    content: [["type": "text", "text": .string(answer(turn))]], stopReason: "stop",
                    time: time + 9_000),
            ]
            for message in turnMessages where messages.count < count {
                guard case .object(var members) = message else { continue }
                let seq = firstSeq + messages.count
                members["__openclaw"] = ["id": .string("e\(seq)"), "seq": .int(seq)]
                messages.append(.object(members))
            }
            turn += 1
        }
        return messages
    }

    /// A `chat.history` response frame with `count` messages, the first being message `firstSeq` of the
    /// session (a multiple of 4 plus 1, so that it starts a turn).
    static func historyResponseText(count: Int, firstSeq: Int = 1, requestId: String = "history-1") -> String {
        let messages = historyMessages(count: count, firstTurn: (firstSeq - 1) / 4, firstSeq: firstSeq)
        let payload: JSONValue = [
            "sessionKey": "main", "sessionId": "6f1c2a7e-0d3b-4e59-9a63-5a3f8f2b9c11",
            "messages": .array(messages), "thinkingLevel": "low",
        ]
        return FrameCodec.text(ResponseFrame(id: requestId, ok: true, payload: payload))
    }

    private static func assistant(content: [JSONValue], stopReason: String, time: Int) -> JSONValue {
        [
            "role": "assistant", "content": .array(content), "api": "openai-responses", "provider": "openai",
            "model": "gpt-5.2", "stopReason": .string(stopReason), "timestamp": .int(time),
            "usage": [
                "input": 5_210, "output": 312, "cacheRead": 4_096, "cacheWrite": 0, "totalTokens": 5_522,
                "cost": ["input": 0.0065, "output": 0.0031, "cacheRead": 0.0005, "cacheWrite": 0, "total": 0.0101],
            ],
        ]
    }

    private static func question(_ turn: Int) -> String {
        "Can you look through module \(turn % 17) of the \(topic(turn)) service for the TODO markers left from "
            + "the refactor (#\(turn)) and tell me which ones still matter before the release?"
    }

    /// A made-up word, one of 1,000: a query for one matches about one turn in a thousand.
    static func topic(_ turn: Int) -> String {
        let syllables = ["ka", "lo", "mi", "ren", "tu", "sa", "vek", "dor", "pi", "nul"]
        let code = (turn &* 7_919) % 1_000
        return syllables[code / 100] + syllables[(code / 10) % 10] + syllables[code % 10] + "x"
    }

    static func thinking(_ turn: Int) -> String {
        "The user wants the TODOs of module \(turn % 17). I should search the sources with ripgrep first, "
            + "then read the surrounding code of each hit to judge whether it blocks the release. Limiting "
            + "the output keeps the context small; twenty hits per file is plenty for a first pass. If a "
            + "marker sits on the cache invalidation path it matters, because the rewrite changed when "
            + "entries expire; markers about logging or naming can wait. I will report them grouped by "
            + "urgency and offer to fix the one that matters."
    }

    static func toolOutput(_ turn: Int) -> String {
        (0..<12).map { line in
            "Sources/Module\(turn % 17)/File\(line).swift:\(40 + line * 7):        // TODO: revisit after the "
                + "\"cache\" rewrite (step \(line))"
        }.joined(separator: "\n")
    }

    static func answer(_ turn: Int) -> String {
        "I found **8 TODO markers** in module \(turn % 17):\n\n"
            + "1. `File0.swift:40` only concerns logging: safe to leave.\n"
            + "2. `File1.swift:47` guards the cache invalidation path; it **does** matter, because the "
            + "rewrite changed when entries expire.\n"
            + "3. `File2.swift:54` and `File3.swift:61` are duplicates of the same note.\n"
            + "4. `File4.swift:68` to `File7.swift:89` ask for better names and can wait.\n"
            + "5. `File8.swift:96` to `File11.swift:117` belong to the migration that was dropped in the spring; "
            + "the code around them is dead and can go with them.\n\n"
            + "Before the release, the cache path needs one more look: entries written by the old code carry "
            + "no expiry, so the new check treats them as expired and evicts them on first read. That is "
            + "correct but causes a burst of misses right after the upgrade; a one-off migration that stamps "
            + "old entries with a default expiry avoids it.\n\n"
            + "```swift\nif entry.expiresAt < now { cache.remove(entry.key) }  // TODO: revisit\n```\n\n"
            + "I would fix the second one before the release and turn the others into issues. Want me to "
            + "draft the fix for `File1.swift`?"
    }
}
