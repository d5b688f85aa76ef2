import OpenClawChat
import OpenClawProtocol
import Testing

/// Chat events as older and third-party gateways send them: one reply, shown once.
@Suite("Chat events from other gateways")
struct GatewayVariationEventTests {
    @Test func eventsWithoutPayloadSeqStillMakeOneReply() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "r1")
        let results = try transcript.play(
            #"""
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","state":"delta",
             "message":{"role":"assistant","content":[{"type":"text","text":"Hel"}]}}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","state":"delta",
             "message":{"role":"assistant","content":[{"type":"text","text":"Hello"}]}}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","state":"delta",
             "message":{"role":"assistant","content":[{"type":"text","text":"Hello"}]}}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","state":"final"}}
            """#
        )
        #expect(results.allSatisfy { $0 == .applied })
        #expect(transcript.ids == ["r1", "reply:r1"])
        #expect(transcript.texts == ["hi", "Hello"])
        #expect(transcript.outcome(ofRun: "r1") == .completed)
    }

    @Test func theSameEventWithAndWithoutAFrameSeqIsAppliedOnce() throws {
        var transcript = Transcript(sessionKey: "main")
        let results = try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":4,"payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":"One "}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "deltaText":"One "}}
            {"type":"event","event":"chat","seq":5,"payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta",
             "deltaText":"two."}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta",
             "deltaText":"two."}}
            {"type":"event","event":"chat","seq":6,"payload":{"runId":"r1","sessionKey":"main","seq":4,"state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"One two."}]}}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":4,"state":"final",
             "message":{"role":"assistant","content":[{"type":"text","text":"One two."}]}}}
            """#
        )
        #expect(
            results == [.applied, .ignored(.duplicate), .applied, .ignored(.duplicate), .applied, .ignored(.runEnded)])
        #expect(transcript.texts == ["One two."])
    }

    @Test func anEmptyFirstDeltaAndAFinalWithoutMessageLeaveTheStreamedText() throws {
        var transcript = Transcript(sessionKey: "main")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":""}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":2,"state":"delta",
             "message":{"role":"assistant","content":[{"type":"text","text":""}]}}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":3,"state":"delta",
             "deltaText":"Done."}}
            {"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":4,"state":"final",
             "message":null}}
            """#
        )
        #expect(transcript.ids == ["reply:r1"])
        #expect(transcript.texts == ["Done."])
        #expect(transcript.entries[0].status == .complete)
    }

    @Test func aHistoryPageWithoutSessionKeyReconcilesTheRequestedSession() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "r1")
        let page = try #require(
            ChatHistoryPage(
                json: [
                    "messages": [
                        ["role": "user", "content": "hi", "timestamp": "2025-01-19T05:20:00.000001Z"],
                        [
                            "role": "assistant", "content": [["type": "text", "text": "Hello"]],
                            "timestamp": 1_737_264_001,
                        ],
                    ]
                ],
                requestedSessionKey: "main"
            )
        )
        #expect(transcript.apply(.historyLoaded(page)) == .applied)
        #expect(transcript.texts == ["hi", "Hello"])
        #expect(transcript.entries.map(\.timestampMs) == [1_737_264_000_000, 1_737_264_001_000])
    }
}
