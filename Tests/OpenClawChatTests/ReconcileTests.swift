import OpenClawChat
import OpenClawProtocol
import Testing

@Suite("Reconciling with chat.history")
struct ReconcileTests {
    private static let firstPage = #"""
        {"type":"res","id":"h1","ok":true,"payload":{"sessionKey":"main","sessionId":"s1","thinkingLevel":"low",
         "messages":[
         {"role":"user","content":"hi","timestamp":1000,"__openclaw":{"id":"a1","seq":1}},
         {"role":"assistant","content":[{"type":"text","text":"Hello!"}],"timestamp":1500,"__openclaw":{"id":"a2",
          "seq":2}}]}}
        """#

    private static let weatherRun = #"""
        {"type":"res","id":"2","ok":true,"payload":{"runId":"r1","status":"started"}}
        {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":3,
         "state":"delta","deltaText":"Let me check."}}
        {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":9,
         "state":"delta","deltaText":" It is 21 °C."}}
        {"type":"event","event":"chat","seq":3,"payload":{"runId":"r1","sessionKey":"agent:main:main","seq":9,
         "state":"final",
         "message":{"role":"assistant","content":[{"type":"text","text":"Let me check. It is 21 °C."}],
          "timestamp":4000}}}
        """#

    private static let secondPage = #"""
        {"type":"res","id":"h2","ok":true,"payload":{"sessionKey":"main","sessionId":"s1","messages":[
         {"role":"user","content":"hi","timestamp":1000,"__openclaw":{"id":"a1","seq":1}},
         {"role":"assistant","content":[{"type":"text","text":"Hello!"}],"timestamp":1500,"__openclaw":{"id":"a2",
          "seq":2}},
         {"role":"user","content":"What's the weather?","timestamp":2000,"__openclaw":{"id":"a3","seq":3}},
         {"role":"assistant","content":[{"type":"text","text":"Let me check."},
           {"type":"toolCall","id":"toolu_01","name":"web_fetch","arguments":{"url":"https://wttr.in"}}],
          "stopReason":"toolUse","timestamp":2100,"__openclaw":{"id":"a4","seq":4}},
         {"role":"toolResult","toolCallId":"toolu_01","toolName":"web_fetch","content":[{"type":"text","text":"21"}],
          "isError":false,
          "timestamp":3000,"__openclaw":{"id":"a5","seq":5}},
         {"role":"assistant","content":[{"type":"text","text":"It is 21 °C."}],"stopReason":"stop","timestamp":4000,
          "__openclaw":{"id":"a6","seq":6}}]}}
        """#

    @Test func reconcileYieldsExactlyTheHistoryAndKeepsIds() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(Self.firstPage)
        #expect(transcript.ids == ["a1", "a2"])
        #expect(transcript.sessionId == "s1" && transcript.thinkingLevel == "low")

        transcript.send("What's the weather?", id: "r1", at: 1_990)
        try transcript.play(Self.weatherRun)
        #expect(transcript.ids == ["a1", "a2", "r1", "reply:r1"])
        #expect(transcript.pendingHistoryRefresh == .runEnded(runId: "r1"))

        try transcript.play(Self.secondPage)
        #expect(transcript.ids == ["a1", "a2", "r1", "a4", "a5", "reply:r1"])
        #expect(transcript.texts == ["hi", "Hello!", "What's the weather?", "Let me check.", "21", "It is 21 °C."])
        #expect(transcript.entries.allSatisfy { $0.source == .history })
        #expect(transcript.entries.map(\.role) == [.user, .assistant, .user, .assistant, .toolResult, .assistant])
        #expect(transcript.entries.map(\.status) == [.sent, .complete, .sent, .complete, .complete, .complete])
        #expect(transcript.entries[2].timestampMs == 2000)
        #expect(transcript.entries[2].runId == "r1")
        #expect(transcript.pendingHistoryRefresh == nil)

        // The same page again changes nothing: reconcile is idempotent.
        let before = transcript
        try transcript.play(Self.secondPage)
        #expect(transcript == before)
    }

    @Test func unconfirmedLocalSendsStayAfterTheHistoryUntilItHasThem() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(Self.firstPage)
        transcript.send("one", id: "k1")
        transcript.send("two", id: "k2")
        transcript.apply(.sendAcknowledged(ChatSendAck(runId: "k1", status: .started)))
        transcript.apply(.sendFailed(id: "k2", reason: "offline"))
        try transcript.play(Self.firstPage)
        #expect(transcript.ids == ["a1", "a2", "k1", "k2"])
        #expect(transcript.entries[2].status == .sent && transcript.entries[2].source == .local)
        #expect(transcript.entries[3].status == .failed("offline"))

        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"hi","timestamp":1000,"__openclaw":{"id":"a1","seq":1}},
             {"role":"assistant","content":[{"type":"text","text":"Hello!"}],"timestamp":1500,"__openclaw":{"id":"a2",
              "seq":2}},
             {"role":"user","content":"one","timestamp":1600,"__openclaw":{"id":"a3","seq":3}}]}}
            """#
        )
        #expect(transcript.ids == ["a1", "a2", "k1", "k2"])
        #expect(transcript.entries[2].source == .history)
        #expect(transcript.entries[3].source == .local)
    }

    @Test func aLocalSendMatchesTheNewestIdenticalMessageNotAnOldOne() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"ok","timestamp":1,"__openclaw":{"id":"o1"}},
             {"role":"assistant","content":"fine","timestamp":2,"__openclaw":{"id":"o2"}}]}}
            """#
        )
        transcript.send("ok", id: "k1")
        transcript.send(" ok\n", id: "k2")
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"ok","timestamp":1,"__openclaw":{"id":"o1"}},
             {"role":"assistant","content":"fine","timestamp":2,"__openclaw":{"id":"o2"}},
             {"role":"user","content":"ok","timestamp":3,"__openclaw":{"id":"n1"}},
             {"role":"assistant","content":"again?","timestamp":4,"__openclaw":{"id":"n2"}},
             {"role":"user","content":"ok","timestamp":5,"__openclaw":{"id":"n3"}}]}}
            """#
        )
        #expect(transcript.ids == ["o1", "o2", "k1", "n2", "k2"])
    }

    @Test func aFirstPageMatchesSendsNewestToNewest() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("ok", id: "k1")
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"ok","timestamp":1,"__openclaw":{"id":"old"}},
             {"role":"assistant","content":"fine","timestamp":2,"__openclaw":{"id":"o2"}},
             {"role":"user","content":"ok","timestamp":3,"__openclaw":{"id":"new"}}]}}
            """#
        )
        #expect(transcript.ids == ["old", "o2", "k1"])
    }

    @Test func aSendWhoseRunEndedButIsNotInHistoryIsDropped() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("/status", id: "k1")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"k1","sessionKey":"main","seq":1,"state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"All good."}]}}}
            """#
        )
        #expect(transcript.ids == ["k1", "reply:k1"])
        try transcript.play(Self.firstPage)
        #expect(transcript.ids == ["a1", "a2"])
    }

    @Test func aStreamingReplySurvivesAndKeepsStreaming() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("long task", id: "r1")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Working"}}
            """#
        )
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"long task","timestamp":1,"__openclaw":{"id":"u1"}}]}}
            """#
        )
        #expect(transcript.ids == ["r1", "reply:r1"])
        #expect(transcript.entries[1].source == .live)
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":" on it"}}
            """#
        )
        #expect(transcript.texts == ["long task", "Working on it"])
    }

    @Test func afterAResyncOnlyRunsTheGatewayCallsInFlightSurvive() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"gone","sessionKey":"main","seq":1,
             "state":"delta","deltaText":"Lost"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"live","sessionKey":"main","seq":1,
             "state":"delta","deltaText":"Garbled"}}
            """#
        )
        transcript.apply(.resyncNeeded(.sequenceGap))
        #expect(transcript.pendingHistoryRefresh == .resync(.sequenceGap))
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[],
             "inFlightRun":{"runId":"live","text":"Working on it"}}}
            {"type":"event","event":"chat","seq":9,"payload":{"runId":"live","sessionKey":"main","seq":7,
             "state":"delta","deltaText":", nearly done"}}
            """#
        )
        #expect(transcript.ids == ["reply:live"])
        #expect(transcript.texts == ["Working on it, nearly done"])
        // A run dropped by mistake comes back with its next event.
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":10,"payload":{"runId":"gone","sessionKey":"main","seq":5,
             "state":"delta",
             "message":{"role":"assistant","content":[{"type":"text","text":"Lost no more"}]}}}
            """#
        )
        #expect(transcript.texts == ["Working on it, nearly done", "Lost no more"])
    }

    @Test func inFlightRunIsAdoptedAfterAReconnect() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.resyncNeeded(.reconnected))
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"go","timestamp":1,"__openclaw":{"id":"u1"}}],"inFlightRun":{"runId":"r9",
              "text":"Half"}}}
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r9","sessionKey":"main","seq":12,
             "state":"delta","deltaText":" way"}}
            """#
        )
        #expect(transcript.ids == ["u1", "reply:r9"])
        #expect(transcript.texts == ["go", "Half way"])
        #expect(transcript.activeRunIds == ["r9"])
    }

    @Test func replyOfAnotherClientsRunIsMatchedByText() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(Self.firstPage)
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"other","sessionKey":"agent:main:main","seq":1,
             "state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"Sure."}]}}}
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"hi","timestamp":1000,"__openclaw":{"id":"a1","seq":1}},
             {"role":"assistant","content":[{"type":"text","text":"Hello!"}],"timestamp":1500,"__openclaw":{"id":"a2",
              "seq":2}},
             {"role":"user","content":"from my phone","timestamp":1600,"__openclaw":{"id":"a3","seq":3}},
             {"role":"assistant","content":[{"type":"text","text":"Sure."}],"timestamp":1700,"__openclaw":{"id":"a4",
              "seq":4}}]}}
            """#
        )
        #expect(transcript.ids == ["a1", "a2", "a3", "reply:other"])
    }

    /// Sent quickly one after another, the runs overlap: the page has every question before the answers.
    /// Each reply row still claims its own answer (by its text), so each keeps its run and its footer data.
    @Test func overlappingRunsEachClaimTheirOwnAnswer() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(Self.firstPage)
        for name in ["one", "two"] {
            transcript.send(name, id: name, at: 2_000)
            transcript.apply(.sendAcknowledged(ChatSendAck(runId: name, status: .started)))
        }
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"one","sessionKey":"agent:main:main","seq":1,
             "state":"final","message":{"role":"assistant","content":[{"type":"text","text":"answer one"}]}}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"two","sessionKey":"agent:main:main","seq":1,
             "state":"final","message":{"role":"assistant","content":[{"type":"text","text":"answer two"}]}}}
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"hi","timestamp":1000,"__openclaw":{"id":"a1","seq":1}},
             {"role":"assistant","content":[{"type":"text","text":"Hello!"}],"timestamp":1500,"__openclaw":{"id":"a2",
              "seq":2}},
             {"role":"user","content":"one","timestamp":2000,"__openclaw":{"id":"a3","seq":3}},
             {"role":"user","content":"two","timestamp":2001,"__openclaw":{"id":"a4","seq":4}},
             {"role":"assistant","content":[{"type":"text","text":"answer one"}],"timestamp":2100,
              "usage":{"input":3,"output":2},"__openclaw":{"id":"a5","seq":5}},
             {"role":"assistant","content":[{"type":"text","text":"answer two"}],"timestamp":2200,
              "usage":{"input":3,"output":2},"__openclaw":{"id":"a6","seq":6}}]}}
            """#
        )
        #expect(transcript.ids == ["a1", "a2", "one", "two", "reply:one", "reply:two"])
        #expect(transcript.entries.suffix(2).map(\.runId) == ["one", "two"])
        #expect(transcript.entries.suffix(2).map(\.text) == ["answer one", "answer two"])
        #expect(transcript.entries.allSatisfy { $0.source == .history })
    }

    @Test func abortedReplyIsMatchedByItsAbortMarker() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"C3","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Partial an"}}
            {"type":"event","event":"chat","seq":2,"payload":{"runId":"C3","sessionKey":"main","seq":2,
             "state":"aborted","stopReason":"rpc"}}
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"assistant","content":[{"type":"text","text":"Partial ans"}],"stopReason":"stop","timestamp":5,
              "openclawAbort":{"aborted":true,"origin":"rpc","runId":"C3"},"__openclaw":{"id":"p1"}}]}}
            """#
        )
        #expect(transcript.ids == ["reply:C3"])
        #expect(transcript.texts == ["Partial ans"])
        #expect(transcript.entries[0].status == .stopped)
    }

    @Test func anErrorReplyTakesTheStoredErrorMessage() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "E5")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"E5","sessionKey":"main","seq":3,"state":"error",
             "errorMessage":"rate limited"}}
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"hi","timestamp":1,"__openclaw":{"id":"u1"}},
             {"role":"assistant","content":[],"stopReason":"error","errorMessage":"429 rate limited","timestamp":2,
              "__openclaw":{"id":"e1"}}]}}
            """#
        )
        #expect(transcript.ids == ["E5", "reply:E5"])
        #expect(transcript.entries[1].status == .failed("429 rate limited"))
        #expect(transcript.entries[1].source == .history)
        #expect(transcript.outcome(ofRun: "E5") == .failed(message: "rate limited", kind: nil))
    }

    @Test func messagesWithoutGatewayIdsGetStableDerivedIds() throws {
        let page = #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"same","timestamp":"2025-01-19T05:20:00Z"},
             {"role":"user","content":"same","timestamp":"2025-01-19T05:20:00Z"},
             {"role":"assistant","content":"reply"}]}}
            """#
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(page)
        let ids = transcript.ids
        #expect(Set(ids).count == 3)
        #expect(ids[1] == ids[0] + "#2")
        try transcript.play(page)
        #expect(transcript.ids == ids)
    }

    @Test func oldRowsOutsideTheNewPageAreDropped() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(Self.secondPage)
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","hasMore":true,"nextOffset":4,"messages":[
             {"role":"assistant","content":[{"type":"text","text":"It is 21 °C."}],"stopReason":"stop","timestamp":4000,
              "__openclaw":{"id":"a6","seq":6}}]}}
            """#
        )
        #expect(transcript.ids == ["a6"])
        #expect(transcript.hasOlderHistory)
    }

    @Test func anErrorReplyHistoryDoesNotHaveIsDroppedButItsOutcomeRemains() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"E6","sessionKey":"main","seq":3,"state":"error",
             "errorMessage":"boom"}}
            """#
        )
        #expect(transcript.ids == ["reply:E6"])
        try transcript.play(Self.firstPage)
        #expect(transcript.ids == ["a1", "a2"])
        #expect(transcript.outcome(ofRun: "E6") == .failed(message: "boom", kind: nil))
    }

    @Test func aPageRequestedBeforeARunEndedDoesNotEraseIt() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.resyncNeeded(.reconnected))
        transcript.apply(.historyRequested)
        transcript.send("/status", id: "k1")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"k1","sessionKey":"main","seq":1,"state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"All good."}]}}}
            """#
        )
        // The page left before the run ended: it cannot show it, so nothing of the run is dropped.
        try transcript.play(Self.firstPage)
        #expect(transcript.ids == ["a1", "a2", "k1", "reply:k1"])
        #expect(transcript.pendingHistoryRefresh == .runEnded(runId: "k1"))

        transcript.apply(.historyRequested)
        try transcript.play(
            #"""
            {"type":"res","id":"h","ok":true,"payload":{"sessionKey":"main","messages":[
             {"role":"user","content":"hi","timestamp":1000,"__openclaw":{"id":"a1","seq":1}},
             {"role":"assistant","content":[{"type":"text","text":"Hello!"}],"timestamp":1500,"__openclaw":{"id":"a2",
              "seq":2}},
             {"role":"user","content":"/status","timestamp":1600,"__openclaw":{"id":"a3","seq":3}},
             {"role":"assistant","content":[{"type":"text","text":"All good."}],"timestamp":1700,
              "__openclaw":{"id":"a4","seq":4}}]}}
            """#
        )
        #expect(transcript.ids == ["a1", "a2", "k1", "reply:k1"])
        #expect(transcript.entries.allSatisfy { $0.source == .history })
        #expect(transcript.pendingHistoryRefresh == nil)
    }

    @Test func aTriggerDuringAFetchAsksForAnotherFetch() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.resyncNeeded(.reconnected))
        transcript.apply(.historyRequested)
        #expect(transcript.pendingHistoryRefresh == nil)
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"final"}}
            """#
        )
        try transcript.play(Self.firstPage)
        #expect(transcript.pendingHistoryRefresh == .runEnded(runId: "r1"))
        transcript.apply(.historyRequested)
        try transcript.play(Self.firstPage)
        #expect(transcript.pendingHistoryRefresh == nil)
    }
}
