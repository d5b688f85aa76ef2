import OpenClawProtocol
import Testing

@Suite("Chat message encoding round trip")
struct ChatMessageEncodingTests {
    /// Encodes, serializes to text, parses and decodes: the path the SQLite store takes.
    private func roundTrip(_ message: ChatMessage) throws -> ChatMessage {
        let text = JSONSerializer.string(message.json)
        return try #require(ChatMessage(json: try JSONParser().parse(text)))
    }

    @Test func textMessageWithEntryInfo() throws {
        let message = ChatMessage(
            role: .user, content: [.text("hi"), .text("second line")], timestampMs: 1_737_264_000_123,
            entry: ChatTranscriptEntryInfo(id: "e1", seq: 4))
        #expect(try roundTrip(message) == message)
        #expect(message.json["timestamp"] == 1_737_264_000_123)
        #expect(message.json["__openclaw"] == ["id": "e1", "seq": 4])
    }

    @Test func thinkingToolCallImageAndUnknownBlocks() throws {
        let arguments: JSONValue = [
            "url": "https://example.com/?q=\"x\"", "depth": 2, "ratio": 0.25, "flags": [true, false, nil],
            "nested": ["a": ["b": "ü ✓ 🦞"]],
        ]
        var message = ChatMessage(
            role: .assistant,
            content: [
                .thinking("User wants weather"),
                .toolCall(id: "toolu_01", name: "web_fetch", arguments: arguments),
                .toolCall(id: nil, name: "exec", arguments: .object([:])),
                .text("It is 21 °C.\nTab\there"),
                .image(mimeType: "image/png", omitted: true, bytes: 2048),
                .image(mimeType: nil, omitted: true, bytes: nil),
                .other(type: "canvas", raw: ["type": "canvas", "preview": "p", "rawText": "r", "n": 3]),
            ],
            timestampMs: 1_737_264_002_000,
            entry: ChatTranscriptEntryInfo(id: "e5", seq: 5)
        )
        message.stopReason = "toolUse"
        message.provider = "anthropic"
        message.model = "claude-sonnet-4-5"
        #expect(try roundTrip(message) == message)
        #expect(message.json["content"]?.arrayValue?[1]["type"] == "toolCall")
        #expect(message.json["content"]?.arrayValue?[2]["id"] == nil)
    }

    @Test func usageInEveryField() throws {
        var message = ChatMessage(role: .assistant, content: [.text("ok")])
        message.usage = ChatUsage(
            inputTokens: 900, outputTokens: 40, cacheReadTokens: 5, cacheWriteTokens: 7, totalTokens: 952,
            costTotal: 0.003_141_5)
        #expect(try roundTrip(message) == message)
        message.usage = ChatUsage(costTotal: 2)
        #expect(try roundTrip(message) == message)
        message.usage = ChatUsage()
        #expect(try roundTrip(message) == message)
    }

    @Test func abortMarkerErrorAndDividerFields() throws {
        var message = ChatMessage(
            role: .assistant, content: [.text("partial")], timestampMs: 7,
            entry: ChatTranscriptEntryInfo(id: "e9", seq: 9, kind: "compaction", truncated: true))
        message.abort = ChatAbortMarker(origin: "rpc", runId: "run-1")
        message.stopReason = "aborted"
        message.errorMessage = "stopped by the user"
        #expect(try roundTrip(message) == message)
        #expect(message.json["openclawAbort"]?["aborted"] == true)
        #expect(message.json["__openclaw"]?["truncated"] == true)
        message.abort = ChatAbortMarker()
        message.entry = ChatTranscriptEntryInfo()
        #expect(try roundTrip(message) == message)
        #expect(message.json["__openclaw"] == .object([:]))
    }

    @Test func toolResultFields() throws {
        var message = ChatMessage(role: .toolResult, content: [.text("exit 0")], timestampMs: 1)
        message.toolCallId = "toolu_01"
        message.toolName = "exec"
        message.isError = false
        #expect(try roundTrip(message) == message)
        message.isError = true
        #expect(try roundTrip(message) == message)
        #expect(message.json["toolCallId"] == "toolu_01")
    }

    @Test func senderLabelOddRolesAndEmptyContent() throws {
        var message = ChatMessage(role: .other("developer"), content: [])
        message.senderLabel = "Ana"
        #expect(try roundTrip(message) == message)
        #expect(
            try roundTrip(ChatMessage(role: .system, content: [.text("")]))
                == ChatMessage(
                    role: .system, content: [.text("")]))
    }

    @Test func decodedWireMessagesSurviveReencoding() throws {
        let wire = #"""
            {"role":"tool","tool_call_id":"t1","name":"exec","content":"ok","is_error":true,"timestamp":"2025-01-19T05:20:00Z",
             "usage":{"inputTokens":3,"total":4,"cost":{"total":0.5}},"openclawAbort":{"aborted":true,"origin":"stop-command"},
             "__openclaw":{"id":"x","seq":2,"truncated":true},"content2":"ignored"}
            """#
        let decoded = try #require(ChatMessage(json: try JSONParser().parse(wire)))
        #expect(try roundTrip(decoded) == decoded)
        #expect(decoded.toolName == "exec")
        #expect(decoded.timestampMs == 1_737_264_000_000)
    }

    @Test func unknownBlockWithoutATypeSurvives() throws {
        let message = ChatMessage(role: .assistant, content: [.other(type: "", raw: ["x": 1])])
        #expect(try roundTrip(message) == message)
    }
}
