import OpenClawProtocol
import Testing

@Suite("Chat history message decoding")
struct ChatMessageDecodingTests {
    private func message(_ text: String) throws -> ChatMessage {
        try #require(ChatMessage(json: try JSONParser().parse(text)))
    }

    @Test func userMessageWithStringContentAndMillisecondTimestamp() throws {
        let decoded = try message(
            #"{"role":"user","content":"hi","timestamp":1737264000000,"__openclaw":{"id":"a1","seq":1}}"#
        )
        #expect(decoded.role == .user)
        #expect(decoded.content == [.text("hi")])
        #expect(decoded.text == "hi")
        #expect(decoded.timestampMs == 1_737_264_000_000)
        #expect(decoded.entry == ChatTranscriptEntryInfo(id: "a1", seq: 1))
        #expect(decoded.stableKey == "a1")
    }

    @Test func assistantMessageWithPartsUsageAndStopReason() throws {
        let decoded = try message(
            #"""
            {"role":"assistant","content":[{"type":"thinking","thinking":"User wants weather","thinkingSignature":"x"},
              {"type":"toolCall","id":"toolu_01","name":"web_fetch","arguments":{"url":"https://example.com"}},
              {"type":"text","text":"It is"},{"type":"text","text":"21 °C."},
              {"type":"image","mimeType":"image/png","omitted":true,"bytes":2048},
              {"type":"canvas","preview":"p","rawText":"r"}],
             "api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5",
             "usage":{"input":900,"output":40,"cacheRead":5,"totalTokens":940,"cost":{"total":0.003}},
             "stopReason":"toolUse","timestamp":1737264002000,"__openclaw":{"id":"e5","seq":5}}
            """#
        )
        #expect(decoded.role == .assistant)
        #expect(decoded.content.count == 6)
        #expect(decoded.content[0] == .thinking("User wants weather"))
        #expect(
            decoded.content[1]
                == .toolCall(id: "toolu_01", name: "web_fetch", arguments: ["url": "https://example.com"]))
        #expect(decoded.content[4] == .image(mimeType: "image/png", omitted: true, bytes: 2048))
        guard case .other(let type, let raw) = decoded.content[5] else {
            Issue.record("canvas should stay raw")
            return
        }
        #expect(type == "canvas")
        #expect(raw["preview"] == "p")
        #expect(decoded.text == "It is\n21 °C.")
        #expect(
            decoded.usage
                == ChatUsage(inputTokens: 900, outputTokens: 40, cacheReadTokens: 5, totalTokens: 940, costTotal: 0.003)
        )
        #expect(decoded.stopReason == "toolUse")
        #expect(decoded.provider == "anthropic")
        #expect(decoded.model == "claude-sonnet-4-5")
    }

    /// Where a message has a field in two spellings, or in a shape the field does not take, what it reads.
    @Test(arguments: [
        (#"{"role":"toolResult","toolCallId":"camel","tool_call_id":"snake"}"#, "toolCallId", "camel"),
        (#"{"role":"toolResult","toolCallId":" ","tool_call_id":"snake"}"#, "toolCallId", "snake"),
        (#"{"role":"toolResult","toolName":"","tool_name":"snake","name":"plain"}"#, "toolName", "snake"),
        (#"{"role":"toolResult","name":"plain"}"#, "toolName", "plain"),
        (#"{"role":"assistant","name":"plain"}"#, "toolName", "nil"),
        (#"{"role":"toolResult","isError":"yes","is_error":true}"#, "isError", "true"),
        (#"{"role":"toolResult","isError":false,"is_error":true}"#, "isError", "false"),
        (#"{"role":7,"content":"x"}"#, "role", ""),
        (#"{"role":"user","timestamp":5,"ts":9}"#, "timestampMs", "5"),
        (#"{"role":"user","timestamp":null,"ts":9}"#, "timestampMs", "9"),
        (#"{"role":"user","stopReason":"  ","model":"m","provider":null}"#, "stopReason", "nil"),
    ])
    func spellingsAndShapes(json: String, field: String, expected: String) throws {
        let decoded = try message(json)
        let value: String? =
            switch field {
            case "toolCallId": decoded.toolCallId
            case "toolName": decoded.toolName
            case "isError": decoded.isError.map { "\($0)" }
            case "role": decoded.role.wireValue
            case "timestampMs": decoded.timestampMs.map { "\($0)" }
            default: decoded.stopReason
            }
        #expect((value ?? "nil") == expected, "\(json)")
    }

    @Test func toolResultInBothSpellings() throws {
        let camel = try message(
            #"""
            {"role":"toolResult","toolCallId":"t1","toolName":"exec","content":[{"type":"text","text":"ok"}],
             "isError":false,"timestamp":1}
            """#
        )
        let snake = try message(
            #"{"role":"tool_result","tool_call_id":"t1","tool_name":"exec","content":"ok","is_error":true}"#
        )
        #expect(camel.role == .toolResult && snake.role == .toolResult)
        #expect(camel.toolCallId == "t1" && snake.toolCallId == "t1")
        #expect(camel.toolName == "exec" && snake.toolName == "exec")
        #expect(camel.isError == false && snake.isError == true)
    }

    @Test(arguments: [
        ("tool", ChatRole.toolResult), ("function", .toolResult), ("system", .system),
        ("developer", .other("developer")), ("", .other("")),
    ])
    func oddRoles(wire: String, role: ChatRole) throws {
        #expect(try message(#"{"role":"\#(wire)","content":"x"}"#).role == role)
    }

    @Test func isoTimestamps() throws {
        #expect(
            try message(#"{"role":"user","content":"x","timestamp":"2025-01-19T05:20:00Z"}"#).timestampMs
                == 1_737_264_000_000)
        #expect(
            try message(#"{"role":"user","content":"x","timestamp":"2025-01-19T07:20:00.5+02:00"}"#).timestampMs
                == 1_737_264_000_500)
        #expect(
            try message(#"{"role":"user","content":"x","timestamp":1737264000000.7}"#).timestampMs
                == 1_737_264_000_000)
        #expect(try message(#"{"role":"user","content":"x","timestamp":"yesterday"}"#).timestampMs == nil)
    }

    @Test func missingFieldsDecodeToEmptyValues() throws {
        let bare = try message(#"{"role":"assistant"}"#)
        #expect(bare.content.isEmpty)
        #expect(bare.text.isEmpty)
        #expect(!bare.hasText)
        #expect(bare.timestampMs == nil)
        #expect(bare.entry == nil)
        #expect(bare.usage == nil)
        #expect(ChatMessage(json: "not an object") == nil)
        #expect(ChatMessage(json: nil) == nil)
    }

    @Test func oddContentShapes() throws {
        let mixed = try message(
            #"""
            {"role":"assistant","content":["plain",{"type":"text"},{"type":"tool_use","id":"x","name":"exec",
             "input":{"command":"ls"}},42]}
            """#
        )
        #expect(
            mixed.content == [
                .text("plain"), .text(""), .toolCall(id: "x", name: "exec", arguments: ["command": "ls"]),
            ])
        #expect(try message(#"{"role":"user","content":null}"#).content.isEmpty)
    }

    @Test func errorAbortAndTruncationMarkers() throws {
        let failed = try message(
            #"{"role":"assistant","content":[],"stopReason":"error","errorMessage":"rate limited"}"#
        )
        #expect(failed.errorMessage == "rate limited")
        let aborted = try message(
            #"""
            {"role":"assistant","content":[{"type":"text","text":"Partial"}],"openclawAbort":{"aborted":true,
             "origin":"rpc","runId":"r9"}}
            """#
        )
        #expect(aborted.abort == ChatAbortMarker(origin: "rpc", runId: "r9"))
        let oversized = try message(
            #"""
            {"role":"user","timestamp":5,"content":[{"type":"text","text":"[omitted]"}],
             "__openclaw":{"truncated":true,"reason":"oversized"}}
            """#
        )
        #expect(oversized.entry?.truncated == true)
        #expect(oversized.entry?.id == nil)
        let compaction = try message(
            #"""
            {"role":"system","content":[{"type":"text","text":"Compaction"}],"__openclaw":{"kind":"compaction",
             "id":"c1","seq":9}}
            """#
        )
        #expect(compaction.entry?.kind == "compaction")
    }

    @Test func derivedKeyIsStableAndDistinguishesContent() throws {
        let first = try message(#"{"role":"user","content":"hi","timestamp":10}"#)
        let again = try message(#"{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":10}"#)
        let other = try message(#"{"role":"user","content":"ho","timestamp":10}"#)
        #expect(first.stableKey.hasPrefix("derived:user:10:"))
        #expect(first.stableKey == again.stableKey)
        #expect(first.stableKey != other.stableKey)
    }

    /// The marker is the gateway's bytes: a text whose last character joins the marker's newline (`\r`
    /// before it) still ends with them, and a text that only looks alike does not.
    @Test func theCutMarkerIsRemovedByItsBytes() {
        let marker = ChatMessage.historyTruncationMarker
        #expect(ChatMessage.removingTruncationMarker(from: "start\r" + marker) == "start\r")
        #expect(ChatMessage.removingTruncationMarker(from: "é🙂" + marker) == "é🙂")
        #expect(ChatMessage.removingTruncationMarker(from: marker) == "")
        #expect(ChatMessage.removingTruncationMarker(from: "start") == nil)
        #expect(ChatMessage.removingTruncationMarker(from: String(marker.dropFirst())) == nil)
    }
}
