import OpenClawChat
import OpenClawProtocol
import Testing

@Suite("Terminal events, duplicates and filtering")
struct TerminalEventTests {
    @Test func silentFinalLeavesNoReply() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("heartbeat", id: "r1")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":3,
             "state":"final"}}
            """#
        )
        #expect(transcript.ids == ["r1"])
        #expect(transcript.outcome(ofRun: "r1") == .completed)
        #expect(transcript.pendingHistoryRefresh == .runEnded(runId: "r1"))
    }

    @Test func silentFinalAfterAnEmptyReplyRowRemovesIt() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"agent","seq":1,"payload":{"runId":"r1","seq":1,"stream":"lifecycle","ts":100,
             "sessionKey":"main","data":{"phase":"start"}}}
            """#
        )
        #expect(transcript.ids == ["reply:r1"])
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"final"}}
            """#
        )
        #expect(transcript.entries.isEmpty)
    }

    @Test func finalWithoutMessageKeepsTheStreamedText() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"All done."}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"final"}}
            """#
        )
        #expect(transcript.texts == ["All done."])
        #expect(transcript.entries[0].status == .complete)
    }

    @Test func injectedFinalWithoutDeltasAddsAReply() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"inject-m1","sessionKey":"main","seq":0,
             "state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"[note]\n\nhello"}],"timestamp":9}}}
            """#
        )
        #expect(transcript.texts == ["[note]\n\nhello"])
        #expect(transcript.entries[0].message?.timestampMs == 9)
    }

    @Test func abortedKeepsThePartialTextAndMarksItStopped() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("write an essay", id: "C3")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"C3","sessionKey":"main","seq":4,"state":"delta",
             "deltaText":"Partial"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"C3","sessionKey":"main","seq":6,"state":"delta",
             "deltaText":" ans"}}
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"C3","sessionKey":"main","seq":8,
             "state":"aborted","stopReason":"rpc"}}
            """#
        )
        #expect(transcript.entries[1].text == "Partial ans")
        #expect(transcript.entries[1].status == .stopped)
        #expect(transcript.entries[1].stopReason == "rpc")
        #expect(transcript.outcome(ofRun: "C3") == .stopped(reason: "rpc"))
    }

    @Test func abortedMessageSnapshotWins() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"C3","sessionKey":"main","seq":4,"state":"delta",
             "deltaText":"Part"}}
            {"type":"event","event":"chat","seq":1300,"payload":{"runId":"C3","sessionKey":"main","seq":8,
             "state":"aborted","stopReason":"rpc",
             "message":{"role":"assistant","content":[{"type":"text","text":"Partial ans"}],"timestamp":1737264100000}}}
            """#
        )
        #expect(transcript.texts == ["Partial ans"])
        #expect(transcript.entries[0].status == .stopped)
    }

    @Test func errorShowsTheErrorMessage() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "E5")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"E5","sessionKey":"agent:main:main","seq":2,
             "state":"delta","deltaText":"Let me"}}
            {"type":"event","event":"chat","seq":1400,"payload":{"runId":"E5","sessionKey":"agent:main:main","seq":3,
             "state":"error",
             "errorMessage":"LLM request failed: rate limited","errorKind":"rate_limit"}}
            """#
        )
        let reply = transcript.entries[1]
        #expect(reply.status == .failed("LLM request failed: rate limited"))
        #expect(reply.errorKind == .rateLimit)
        #expect(reply.text == "Let me")
        #expect(
            transcript.outcome(ofRun: "E5") == .failed(message: "LLM request failed: rate limited", kind: .rateLimit))
        #expect(transcript.entries[0].status == .sent)
    }

    @Test func errorWithoutDeltasStillLeavesARow() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"E6","sessionKey":"main","seq":1,"state":"error"}}
            """#
        )
        #expect(transcript.entries.map(\.status) == [.failed("The run failed.")])
    }

    @Test func duplicatedAndLateEventsAreIgnored() throws {
        var transcript = Transcript(sessionKey: "main")
        let results = try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Hel"}}
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Hel"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta",
             "deltaText":"lo"}}
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":"stale"}}
            {"type":"event","event":"chat","seq":4,"payload":{"runId":"r1","sessionKey":"main","seq":4,"state":"final"}}
            {"type":"event","event":"chat","seq":4,"payload":{"runId":"r1","sessionKey":"main","seq":4,"state":"final"}}
            {"type":"event","event":"chat","seq":5,"payload":{"runId":"r1","sessionKey":"main","seq":5,"state":"delta",
             "deltaText":"late"}}
            {"type":"event","event":"chat","seq":6,"payload":{"runId":"r1","sessionKey":"main","seq":6,"state":"error",
             "errorMessage":"x"}}
            """#
        )
        #expect(
            results == [
                .applied, .ignored(.duplicate), .applied, .ignored(.stale), .applied, .ignored(.runEnded),
                .ignored(.runEnded), .ignored(.runEnded),
            ])
        #expect(transcript.texts == ["Hello"])
        #expect(transcript.entries[0].status == .complete)
    }

    @Test func aFlushDeltaAndTheFinalMayShareASeq() throws {
        var transcript = Transcript(sessionKey: "main")
        let results = try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":5,"state":"delta",
             "deltaText":"Hel"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":9,"state":"delta",
             "deltaText":"lo"}}
            {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"main","seq":9,"state":"final"}}
            """#
        )
        #expect(results == [.applied, .applied, .applied])
        #expect(transcript.texts == ["Hello"])
        #expect(transcript.outcome(ofRun: "r1") == .completed)
    }

    @Test func aTerminalEventIsAcceptedEvenWithAnOlderSeq() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":5,"state":"delta",
             "deltaText":"Hi"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":0,
             "state":"aborted","stopReason":"stop"}}
            """#
        )
        #expect(transcript.outcome(ofRun: "r1") == .stopped(reason: "stop"))
    }

    @Test func eventsForOtherSessionsAreIgnored() throws {
        var transcript = Transcript(sessionKey: "main")
        let results = try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"x1","sessionKey":"agent:main:telegram:dm:42",
             "seq":1,"state":"delta","deltaText":"no"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"x1","sessionKey":"agent:ops:main","seq":2,
             "state":"final"}}
            {"type":"event","event":"agent","seq":3,"payload":{"runId":"x1","seq":1,"stream":"tool","ts":1,
             "sessionKey":"agent:other:main",
             "data":{"phase":"start","name":"exec","toolCallId":"t1"}}}
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"agent:other:main","messages":[{"role":"user",
             "content":"x"}]}}
            """#
        )
        #expect(
            results == [
                .ignored(.otherSession), .ignored(.otherSession), .ignored(.otherSession), .ignored(.otherSession),
            ])
        #expect(transcript.entries.isEmpty)
        #expect(transcript.pendingHistoryRefresh == nil)
    }

    @Test(arguments: [("main", "agent:main:main"), ("agent:main:main", "main"), ("main", "main")])
    func aliasAndCanonicalMainKeysAreTheSameSession(transcriptKey: String, eventKey: String) throws {
        var transcript = Transcript(sessionKey: transcriptKey)
        let event = try #require(
            ChatEvent(json: [
                "runId": "r1", "sessionKey": .string(eventKey), "seq": 1, "state": "delta", "deltaText": "ok",
            ]))
        #expect(transcript.apply(.chatEvent(event)) == .applied)
    }

    @Test func mainKeyComesFromHelloOk() throws {
        let hello = try #require(
            HelloOk(
                json: try JSONParser().parse(
                    #"""
                    {"type":"hello-ok","protocol":4,"snapshot":{"sessionDefaults":{"defaultAgentId":"ops",
                     "mainKey":"work","mainSessionKey":"agent:ops:work"}}}
                    """#
                )))
        let matcher = SessionKeyMatcher(defaults: hello.snapshot.sessionDefaults)
        var transcript = Transcript(sessionKey: "main", sessionKeys: matcher)
        func delta(_ key: String, seq: Int) throws -> TranscriptAction {
            .chatEvent(
                try #require(
                    ChatEvent(json: [
                        "runId": "r1", "sessionKey": .string(key), "seq": .int(seq), "state": "delta", "deltaText": "x",
                    ])))
        }
        #expect(transcript.apply(try delta("agent:ops:work", seq: 1)) == .applied)
        #expect(transcript.apply(try delta("work", seq: 2)) == .applied)
        #expect(transcript.apply(try delta("agent:main:main", seq: 3)) == .ignored(.otherSession))
        #expect(matcher.canonical("main") == "agent:ops:work")
        #expect(!matcher.matches("agent:ops:work", "agent:ops:other"))
    }
}
