import OpenClawChat
import OpenClawProtocol
import Testing

@Suite("Streaming replies")
struct StreamingTests {
    @Test func protocol3DeltasCarryTheWholeTextAndReplace() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "r1")
        try transcript.play(
            #"""
            {"type":"res","id":"1","ok":true,"payload":{"runId":"r1","status":"started"}}
            {"type":"event","event":"chat","seq":10,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":2,
             "state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"Hel"}],"timestamp":5}}}
            {"type":"event","event":"chat","seq":11,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":4,
             "state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"Hello! Let me"}],
              "timestamp":5}}}
            {"type":"event","event":"chat","seq":12,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":6,
             "state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"Hello! I will"}],
              "timestamp":5}}}
            """#
        )
        #expect(transcript.ids == ["r1", "reply:r1"])
        #expect(transcript.entries[0].status == .sent)
        #expect(transcript.entries[1].text == "Hello! I will")
        #expect(transcript.entries[1].status == .streaming)
        #expect(transcript.entries[1].source == .live)
        #expect(transcript.activeRunIds == ["r1"])

        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":13,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":9,
             "state":"final","stopReason":"stop",
             "message":{"role":"assistant","content":[{"type":"text","text":"Hello! I will check."}],"timestamp":7}}}
            """#
        )
        #expect(transcript.entries[1].text == "Hello! I will check.")
        #expect(transcript.entries[1].status == .complete)
        #expect(transcript.entries[1].timestampMs == 7)
        #expect(transcript.entries[1].stopReason == "stop")
        #expect(transcript.outcome(ofRun: "r1") == .completed)
        #expect(transcript.pendingHistoryRefresh == .runEnded(runId: "r1"))
        #expect(transcript.activeRunIds.isEmpty)
    }

    @Test func protocol4DeltasAppend() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Hel"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":"lo"}}
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta",
             "deltaText":", world"}}
            """#
        )
        #expect(transcript.texts == ["Hello, world"])
    }

    @Test func protocol4ReplaceRewritesTheLiveText() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Nice work "}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":"Nice work","replace":true}}
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta",
             "deltaText":"!"}}
            """#
        )
        #expect(transcript.texts == ["Nice work!"])
    }

    @Test func protocol4EmptyReplaceResetsThenTheTailStreams() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Committed part."}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":"","replace":true}}
            """#
        )
        #expect(transcript.texts == [""])
        #expect(transcript.entries[0].status == .streaming)
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta",
             "deltaText":"Tail"}}
            """#
        )
        #expect(transcript.texts == ["Tail"])
    }

    @Test func protocol4SnapshotWinsAndMissingMessagesAppend() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":16,"payload":{"runId":"A1","sessionKey":"agent:main:main","seq":3,
             "state":"delta","deltaText":"Let me"}}
            {"type":"event","event":"chat","seq":17,"payload":{"runId":"A1","sessionKey":"agent:main:main","seq":5,
             "state":"delta",
             "deltaText":" the weather","message":{"role":"assistant","content":[{"type":"text",
              "text":"Let me check the weather"}],"timestamp":1}}}
            """#
        )
        // The snapshot wins over appending: a dropped frame in between is repaired.
        #expect(transcript.texts == ["Let me check the weather"])
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":18,"payload":{"runId":"A1","sessionKey":"agent:main:main","seq":7,
             "state":"delta",
             "deltaText":"It is 21 °C.","replace":true,"message":{"role":"assistant","content":[{"type":"text",
              "text":"It is 21 °C."}],"timestamp":2}}}
            {"type":"event","event":"chat","seq":19,"payload":{"runId":"A1","sessionKey":"agent:main:main","seq":9,
             "state":"delta","deltaText":" Sunny."}}
            """#
        )
        #expect(transcript.texts == ["It is 21 °C. Sunny."])
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":20,"payload":{"runId":"A1","sessionKey":"agent:main:main","seq":11,
             "state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"It is 21 °C. Sunny."}],
              "timestamp":1737264003000}}}
            """#
        )
        #expect(transcript.texts == ["It is 21 °C. Sunny."])
        #expect(transcript.entries[0].status == .complete)
    }

    @Test func deltaWithMessageButNoTextBlocksFallsBackToDeltaText() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"A"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":"B",
             "message":{"role":"assistant","content":[{"type":"canvas","preview":"p"}]}}}
            """#
        )
        #expect(transcript.texts == ["AB"])
    }

    @Test func statusEventsShowProgressAndNeverEndTheRun() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("build it", id: "r1")
        let results = try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,
             "state":"status","phase":"preparing_workspace"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,
             "state":"status","phase":"starting_model",
             "retry":{"attempt":1,"maxAttempts":3,"reason":"rate_limit"}}}
            """#
        )
        #expect(results == [.applied, .applied])
        #expect(transcript.entries[1].progressPhase == "starting_model")
        #expect(transcript.entries[1].status == .streaming)
        #expect(transcript.outcome(ofRun: "r1") == nil)
        #expect(transcript.pendingHistoryRefresh == nil)
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":3,
             "state":"some_future_state"}}
            {"type":"event","event":"chat","seq":4,"payload":{"runId":"r1","sessionKey":"main","seq":4,"state":"delta",
             "deltaText":"Done"}}
            """#
        )
        #expect(transcript.outcome(ofRun: "r1") == nil)
        #expect(transcript.entries[1].text == "Done")
        #expect(transcript.entries[1].progressPhase == nil)
    }
}
