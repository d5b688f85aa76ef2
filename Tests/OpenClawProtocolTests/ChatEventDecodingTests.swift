import OpenClawProtocol
import Testing

@Suite("Chat and agent event decoding")
struct ChatEventDecodingTests {
    private func frame(_ text: String) throws -> EventFrame {
        guard case .event(let frame) = try FrameCodec().decode(text) else {
            throw FrameDecodingError.notAFrame
        }
        return frame
    }

    @Test func v3CumulativeDelta() throws {
        let event = try #require(
            ChatEvent(
                frame: try frame(
                    #"""
                    {"type":"event","event":"chat","seq":1201,"payload":{"runId":"A1","sessionKey":"agent:main:main",
                     "seq":5,
                     "state":"delta","message":{"role":"assistant","content":[{"type":"text",
                      "text":"Hello! Let me check"}],"timestamp":1737264001200}}}
                    """#
                )))
        #expect(event.runId == "A1")
        #expect(event.sessionKey == "agent:main:main")
        #expect(event.seq == 5)
        #expect(event.state == .delta)
        #expect(event.message?.text == "Hello! Let me check")
        #expect(event.deltaText == nil)
        #expect(event.replace == false)
    }

    @Test func v4DeltaWithReplaceAndWithoutMessage() throws {
        let replace = try #require(
            ChatEvent(
                frame: try frame(
                    #"""
                    {"type":"event","event":"chat","seq":18,"payload":{"runId":"A1","sessionKey":"main","seq":7,
                     "state":"delta","deltaText":"It is 21 °C.","replace":true}}
                    """#
                )))
        #expect(replace.deltaText == "It is 21 °C.")
        #expect(replace.replace)
        #expect(replace.message == nil)
    }

    @Test func terminalStatesAndErrorFields() throws {
        let error = try #require(
            ChatEvent(
                json: try JSONParser().parse(
                    #"""
                    {"runId":"E5","sessionKey":"s","seq":3,"state":"error",
                     "errorMessage":"LLM request failed: rate limited","errorKind":"rate_limit"}
                    """#
                )))
        #expect(error.state == .error && error.state.isTerminal)
        #expect(error.errorKind == .rateLimit)
        #expect(error.errorMessage == "LLM request failed: rate limited")
        let aborted = try #require(
            ChatEvent(json: ["runId": "C3", "sessionKey": "main", "seq": 8, "state": "aborted", "stopReason": "rpc"]))
        #expect(aborted.state == .aborted && aborted.stopReason == "rpc")
        let silent = try #require(ChatEvent(json: ["runId": "C3", "sessionKey": "main", "seq": 9, "state": "final"]))
        #expect(silent.state.isTerminal && silent.message == nil)
    }

    @Test func unknownStateIsNeverTerminal() throws {
        let status = try #require(
            ChatEvent(
                json: try JSONParser().parse(
                    #"""
                    {"runId":"R","sessionKey":"main","seq":1,"state":"status","phase":"preparing_context",
                     "retry":{"attempt":1,"maxAttempts":3,"reason":"rate_limit"}}
                    """#
                )))
        #expect(status.state == .other("status"))
        #expect(!status.state.isTerminal)
        #expect(status.statusPhase == "preparing_context")
    }

    @Test func payloadsWithoutIdsAreRejected() {
        #expect(ChatEvent(json: ["sessionKey": "main", "seq": 1, "state": "delta"]) == nil)
        #expect(ChatEvent(json: ["runId": "", "sessionKey": "main", "seq": 1, "state": "delta"]) == nil)
        #expect(ChatEvent(json: ["runId": "r", "seq": 1, "state": "delta"]) == nil)
        #expect(ChatEvent(json: ["runId": "r", "sessionKey": "main", "seq": 1]) == nil)
        #expect(ChatEvent(json: "garbage") == nil)
        #expect(ChatEvent(json: nil) == nil)
        #expect(ChatEvent(frame: EventFrame(event: "tick", payload: ["ts": 1])) == nil)
        #expect(AgentEvent(json: ["seq": 1, "stream": "tool", "ts": 1, "data": [:]]) == nil)
        #expect(AgentEvent(json: ["runId": "r", "seq": 1, "ts": 1, "data": [:]]) == nil)
    }

    @Test func blankIdsAreRejectedWhateverTheirWhitespace() {
        for blank in [" ", "\t\n", "\u{3000}", "\u{00A0} "] {
            #expect(ChatEvent(json: ["runId": .string(blank), "sessionKey": "main", "state": "delta"]) == nil)
        }
        let padded = ChatEvent(json: [" runId": "x", "runId": " r1", "sessionKey": "é", "state": "delta"])
        #expect(padded?.runId == " r1" && padded?.sessionKey == "é")
    }

    @Test func nullMembersAreAbsentAndUnknownOnesIgnored() throws {
        let event = try #require(
            ChatEvent(json: [
                "runId": "r", "sessionKey": "main", "state": "error", "seq": .null, "message": .null,
                "deltaText": .null, "replace": .null, "errorMessage": .null, "errorKind": "timeout",
                "usage": .null, "phase": .null, "somethingNew": ["nested": true],
            ]))
        #expect(event.seq == nil && event.message == nil && event.deltaText == nil && !event.replace)
        #expect(event.errorMessage == nil && event.usage == nil && event.statusPhase == nil)
        #expect(event.errorKind == .timeout && event.state == .error)
    }

    @Test func missingSeqIsTolerated() throws {
        let event = try #require(
            ChatEvent(json: ["runId": "r", "sessionKey": "main", "state": "delta", "deltaText": "x"]))
        #expect(event.seq == nil)
    }

    @Test func agentStreams() throws {
        func stream(_ payload: String) throws -> AgentStream {
            try #require(AgentEvent(json: try JSONParser().parse(payload))).stream
        }
        #expect(
            try stream(#"{"runId":"r","seq":1,"stream":"lifecycle","ts":1,"data":{"phase":"start","startedAt":1}}"#)
                == .lifecycle(.start))
        #expect(
            try stream(#"{"runId":"r","seq":2,"stream":"lifecycle","ts":1,"data":{"phase":"error","error":"boom"}}"#)
                == .lifecycle(.error("boom")))
        #expect(
            try stream(#"{"runId":"r","seq":3,"stream":"assistant","ts":1,"data":{"text":"Hel","delta":"l"}}"#)
                == .assistant(text: "Hel", delta: "l"))
        #expect(
            try stream(#"{"runId":"r","seq":4,"stream":"assistant","ts":1,"data":{"delta":"l"}}"#)
                == .assistant(text: nil, delta: "l"))
        #expect(
            try stream(#"{"runId":"r","seq":5,"stream":"thinking","ts":1,"data":{"text":"hmm","delta":"m"}}"#)
                == .thinking(text: "hmm", delta: "m"))
        #expect(
            try stream(
                #"""
                {"runId":"r","seq":6,"stream":"tool","ts":1,"data":{"phase":"start","name":"exec",
                 "toolCallId":"t1","args":{"command":"ls"}}}
                """#
            ) == .tool(.start(name: "exec", toolCallId: "t1", args: ["command": "ls"])))
        #expect(
            try stream(
                #"""
                {"runId":"r","seq":7,"stream":"tool","ts":1,"data":{"phase":"result","name":"exec",
                 "toolCallId":"t1","isError":true}}
                """#
            ) == .tool(.result(name: "exec", toolCallId: "t1", isError: true, result: nil)))
        #expect(
            try stream(#"{"runId":"r","seq":8,"stream":"tool","ts":1,"data":{"phase":"start","name":"exec"}}"#)
                == .other(name: "tool", data: ["phase": "start", "name": "exec"]))
        #expect(
            try stream(#"{"runId":"r","seq":9,"stream":"compaction","ts":1,"data":{"phase":"start"}}"#)
                == .other(name: "compaction", data: ["phase": "start"]))
    }

    @Test func agentSeqGapNoticeHasNoSeq() throws {
        let event = try #require(
            AgentEvent(
                json: try JSONParser().parse(
                    #"""
                    {"runId":"r","stream":"error","ts":5,"sessionKey":"main","data":{"reason":"seq gap",
                     "expected":3,"received":5}}
                    """#
                )))
        #expect(event.seq == nil)
        #expect(event.ts == 5)
        #expect(event.sessionKey == "main")
    }
}

/// The message and usage are kept boxed (an event is copied many times on its way): as properties
/// they must read, change and compare as stored ones.
@Suite("Chat event parts")
struct ChatEventPartsTests {
    private static let message = ChatMessage(
        json: ["role": "assistant", "content": [["type": "text", "text": "hi"]], "timestamp": 1])

    @Test func messageAndUsageReadChangeAndCompareAsStoredValues() {
        var event = ChatEvent(runId: "r", sessionKey: "main", seq: 1, state: .delta, message: Self.message)
        let copy = event
        #expect(event.message == Self.message && event.usage == nil)
        event.message = nil
        event.usage = ChatUsage(inputTokens: 3, outputTokens: 4)
        #expect(event.message == nil && event.usage?.inputTokens == 3)
        #expect(copy.message == Self.message && copy.usage == nil, "a copy keeps its own parts")
        #expect(event != copy)
        event.message = Self.message
        event.usage = nil
        #expect(event == copy && event.hashValue == copy.hashValue)
    }
}
