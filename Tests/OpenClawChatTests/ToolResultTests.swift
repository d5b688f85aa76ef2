import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// A tool's result kept with its step (for `/tools` and the app's expanded step), from live events when
/// the gateway sends results and from history's tool-result messages otherwise; always bounded.
@Suite("Tool results on steps")
struct ToolResultTests {
    @Test func resultsReadAsText() {
        #expect(ToolResultText.text(of: "plain") == "plain")
        #expect(ToolResultText.text(of: .null) == nil)
        #expect(ToolResultText.text(of: "") == nil)
        let blocks: JSONValue = [
            "content": [
                ["type": "text", "text": "first"], ["type": "image", "data": "…"], ["type": "text", "text": "second"],
            ]
        ]
        #expect(ToolResultText.text(of: blocks) == "first\nsecond")
        #expect(ToolResultText.text(of: ["exitCode": 0]) == #"{"exitCode":0}"#)
        let huge = String(repeating: "é", count: ToolResultText.limit * 3)
        let cut = ToolResultText.text(of: .string(huge))
        #expect(cut?.count == ToolResultText.limit + 1)
        #expect(cut?.hasSuffix("…") == true)
    }

    @Test func aLiveResultSettlesItsStepWithTheText() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("list", id: "r1")
        try transcript.play(
            #"""
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":1,"stream":"tool","ts":1000,
             "sessionKey":"agent:main:main",
             "data":{"phase":"start","name":"exec","toolCallId":"c1","args":{"command":"ls"}}}}
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":2,"stream":"tool","ts":1400,
             "sessionKey":"agent:main:main",
             "data":{"phase":"result","name":"exec","toolCallId":"c1","isError":false,
                     "result":{"content":[{"type":"text","text":"a.txt\nb.txt"}]}}}}
            """#)
        let step = try #require(transcript.entry(id: "reply:r1")?.activity.first)
        #expect(step.status == .succeeded)
        #expect(step.result == "a.txt\nb.txt")
    }

    @Test func historyToolResultsFillTheirSteps() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"res","id":"h1","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"list","timestamp":1000,"__openclaw":{"id":"u1","seq":1}},
             {"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"exec","arguments":{"command":"ls"}},
               {"type":"toolCall","id":"c2","name":"exec","arguments":{"command":"pwd"}}],
              "timestamp":2000,"__openclaw":{"id":"a1","seq":2}},
             {"role":"toolResult","toolCallId":"c1","toolName":"exec","content":[{"type":"text","text":"a.txt"}],
              "isError":false,"timestamp":2500,"__openclaw":{"id":"t1","seq":3}},
             {"role":"toolResult","toolCallId":"c2","toolName":"exec","content":[],
              "isError":false,"timestamp":2600,"__openclaw":{"id":"t2","seq":4}}]}}
            """#)
        let steps = try #require(transcript.entry(id: "a1")?.activity)
        #expect(steps.map(\.result) == ["a.txt", nil])
    }
}
