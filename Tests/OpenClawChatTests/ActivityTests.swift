import OpenClawChat
import OpenClawProtocol
import Testing

@Suite("Run activity")
struct ActivityTests {
    private static let toolRun = #"""
        {"type":"event","event":"agent","seq":1,"payload":{"runId":"r1","seq":1,"stream":"lifecycle","ts":1000,
         "sessionKey":"agent:main:main",
         "data":{"phase":"start","startedAt":1000}}}
        {"type":"event","event":"agent","seq":2,"payload":{"runId":"r1","seq":2,"stream":"thinking","ts":1000,
         "sessionKey":"agent:main:main",
         "data":{"text":"The user wants","delta":"The user wants"}}}
        {"type":"event","event":"agent","seq":3,"payload":{"runId":"r1","seq":3,"stream":"thinking","ts":1200,
         "sessionKey":"agent:main:main",
         "data":{"delta":" the weather.\nI will fetch it."}}}
        {"type":"event","event":"agent","payload":{"runId":"r1","seq":4,"stream":"tool","ts":1300,
         "sessionKey":"agent:main:main",
         "data":{"phase":"start","name":"exec","toolCallId":"call_1",
                 "args":{"command":"curl -s https://wttr.in/Berlin?format=3\n  --max-time 10 --retry 3"}}}}
        {"type":"event","event":"agent","payload":{"runId":"r1","seq":5,"stream":"tool","ts":1400,
         "sessionKey":"agent:main:main",
         "data":{"phase":"update","name":"exec","toolCallId":"call_1"}}}
        {"type":"event","event":"agent","payload":{"runId":"r1","seq":6,"stream":"tool","ts":2500,
         "sessionKey":"agent:main:main",
         "data":{"phase":"result","name":"exec","toolCallId":"call_1","isError":false}}}
        {"type":"event","event":"agent","payload":{"runId":"r1","seq":7,"stream":"tool","ts":2600,
         "sessionKey":"agent:main:main",
         "data":{"phase":"start","name":"read","toolCallId":"call_2","args":{"path":"/etc/weather.conf"}}}}
        {"type":"event","event":"agent","payload":{"runId":"r1","seq":8,"stream":"tool","ts":2650,
         "sessionKey":"agent:main:main",
         "data":{"phase":"result","name":"read","toolCallId":"call_2","isError":true}}}
        {"type":"event","event":"chat","seq":9,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":9,
         "state":"delta","deltaText":"It is 21 °C."}}
        """#

    @Test func toolStepsFromAgentEventsWithDurations() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("weather?", id: "r1")
        try transcript.play(Self.toolRun)
        let reply = try #require(transcript.entry(id: "reply:r1"))
        #expect(reply.text == "It is 21 °C.")
        #expect(reply.activity.count == 3)

        let thinking = reply.activity[0]
        #expect(thinking.kind == .thinking)
        #expect(thinking.status == .succeeded)
        #expect(thinking.durationMs == 300)
        #expect(thinking.thinkingText == "The user wants the weather.\nI will fetch it.")
        #expect(thinking.summary() == "The user wants the weather.")

        let exec = reply.activity[1]
        #expect(exec.id == "call_1")
        #expect(exec.kind == .tool(name: "exec"))
        #expect(exec.status == .succeeded)
        #expect(exec.startedAtMs == 1300 && exec.endedAtMs == 2500)
        #expect(exec.durationMs == 1200)
        #expect(exec.summary(limit: 40) == "exec: curl -s https://wttr.in/Berlin?fo…")
        #expect(exec.summary().hasPrefix("exec: curl -s https://wttr.in/Berlin?format=3 --max-time 10"))
        #expect(!exec.summary().contains("\n"))

        let read = reply.activity[2]
        #expect(read.status == .failed)
        #expect(read.durationMs == 50)
        #expect(read.summary() == "read: /etc/weather.conf")
    }

    @Test func theTerminalEventSettlesOpenStepsAndALateResultStillLands() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":1,"stream":"thinking","ts":10,
             "sessionKey":"main","data":{"text":"hm"}}}
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":2,"stream":"tool","ts":20,"sessionKey":"main",
             "data":{"phase":"start","name":"exec","toolCallId":"t1","args":{"command":"sleep 1"}}}}
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"final"}}
            """#
        )
        var reply = try #require(transcript.entry(id: "reply:r1"))
        #expect(reply.activity.map(\.status) == [.succeeded, .succeeded])
        #expect(reply.activity[0].durationMs == 10)
        #expect(reply.activity[1].durationMs == nil)

        let late = try transcript.play(
            #"""
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":4,"stream":"tool","ts":1020,
             "sessionKey":"main",
             "data":{"phase":"result","name":"exec","toolCallId":"t1","isError":true}}}
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":5,"stream":"thinking","ts":1030,
             "sessionKey":"main","data":{"text":"x"}}}
            """#
        )
        #expect(late == [.applied, .ignored(.runEnded)])
        reply = try #require(transcript.entry(id: "reply:r1"))
        #expect(reply.activity[1].status == .failed)
        #expect(reply.activity[1].durationMs == 1000)
    }

    @Test func abortedRunsFailTheirOpenSteps() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":1,"stream":"tool","ts":20,"sessionKey":"main",
             "data":{"phase":"start","name":"exec","toolCallId":"t1","args":{"command":"sleep 100"}}}}
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":3,
             "state":"aborted","stopReason":"rpc"}}
            """#
        )
        #expect(transcript.entries[0].activity.map(\.status) == [.failed])
    }

    @Test func agentEventsNeedAKnownSessionAndAreDeduplicated() throws {
        var transcript = Transcript(sessionKey: "main")
        let unknown = try transcript.play(
            #"""
            {"type":"event","event":"agent","payload":{"runId":"x","seq":1,"stream":"tool","ts":1,
             "data":{"phase":"start","name":"exec","toolCallId":"t"}}}
            """#
        )
        #expect(unknown == [.ignored(.unknownRun)])
        transcript.send("hi", id: "r1")
        let results = try transcript.play(
            #"""
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":1,"stream":"tool","ts":1,
             "data":{"phase":"start","name":"exec","toolCallId":"t"}}}
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":1,"stream":"tool","ts":1,
             "data":{"phase":"start","name":"exec","toolCallId":"t"}}}
            {"type":"event","event":"agent","payload":{"runId":"r1","seq":2,"stream":"compaction","ts":2,
             "data":{"phase":"start"}}}
            """#
        )
        #expect(results == [.applied, .ignored(.duplicate), .applied])
        #expect(transcript.entry(id: "reply:r1")?.activity.count == 1)
    }

    @Test func activityFromHistoryPartsWhenNoEventsWereSeen() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"res","id":"h1","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"weather?","timestamp":1000,"__openclaw":{"id":"u1","seq":1}},
             {"role":"assistant","content":[{"type":"thinking","thinking":"Fetch it."},
               {"type":"toolCall","id":"toolu_01","name":"web_fetch","arguments":{"url":"https://wttr.in/Berlin"}},
               {"type":"toolCall","id":"toolu_02","name":"exec","arguments":{"command":["ls","-la"]}}],
              "stopReason":"toolUse","timestamp":2000,"__openclaw":{"id":"a1","seq":2}},
             {"role":"toolResult","toolCallId":"toolu_01","toolName":"web_fetch","content":[{"type":"text",
              "text":"21 °C"}],
              "isError":false,"timestamp":3500,"__openclaw":{"id":"t1","seq":3}},
             {"role":"tool","tool_call_id":"toolu_02","tool_name":"exec","content":"denied","is_error":true,
              "timestamp":3600,
              "__openclaw":{"id":"t2","seq":4}},
             {"role":"assistant","content":[{"type":"toolCall","id":"toolu_03","name":"exec","arguments":{}}],
              "timestamp":4000,"__openclaw":{"id":"a2","seq":5}}]}}
            """#
        )
        let steps = try #require(transcript.entry(id: "a1")).activity
        #expect(steps.map(\.id) == ["a1#thinking-1", "toolu_01", "toolu_02"])
        #expect(steps.map(\.status) == [.succeeded, .succeeded, .failed])
        #expect(steps[0].summary() == "Fetch it.")
        #expect(steps[1].summary() == "web_fetch: https://wttr.in/Berlin")
        #expect(steps[1].durationMs == 1500)
        #expect(steps[2].summary() == "exec: ls -la")
        #expect(steps[2].durationMs == 1600)
        // A call with no result yet, after the last user message: still running.
        let pending = try #require(transcript.entry(id: "a2")).activity
        #expect(pending.map(\.status) == [.running])
        #expect(pending[0].summary() == "exec")
        #expect(transcript.entry(id: "t2")?.role == .toolResult)
    }

    @Test func historyStepsKeepTheDurationsSeenLive() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("weather?", id: "r1")
        try transcript.play(Self.toolRun)
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":10,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":10,
             "state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"It is 21 °C."}],"timestamp":2700}}}
            {"type":"res","id":"h1","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"weather?","timestamp":900,"__openclaw":{"id":"u1"}},
             {"role":"assistant","content":[{"type":"toolCall","id":"call_1","name":"exec",
              "arguments":{"command":"curl -s https://wttr.in"}}],
              "timestamp":1000,"__openclaw":{"id":"a1"}},
             {"role":"toolResult","toolCallId":"call_1","toolName":"exec","content":"21","isError":false,
              "timestamp":5000,"__openclaw":{"id":"t1"}},
             {"role":"assistant","content":[{"type":"text","text":"It is 21 °C."}],"timestamp":2700,
              "__openclaw":{"id":"a2"}}]}}
            """#
        )
        #expect(transcript.ids == ["r1", "a1", "t1", "reply:r1"])
        let step = try #require(transcript.entry(id: "a1")?.activity.first)
        #expect(step.durationMs == 1200)
    }
}
