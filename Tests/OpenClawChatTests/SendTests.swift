import OpenClawChat
import OpenClawProtocol
import Testing

@Suite("Local sends")
struct SendTests {
    @Test func aSendAppearsAtOnceAndIsConfirmedByTheAck() {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hello", id: "k1", at: 42)
        #expect(transcript.entries.count == 1)
        let entry = transcript.entries[0]
        #expect(entry.id == "k1" && entry.runId == "k1" && entry.role == .user)
        #expect(entry.status == .sending && entry.source == .local)
        #expect(entry.text == "hello" && entry.timestampMs == 42)
        #expect(transcript.activeRunIds == ["k1"])

        #expect(transcript.apply(.sendAcknowledged(ChatSendAck(runId: "k1", status: .started))) == .applied)
        #expect(transcript.entries[0].status == .sent)
        // A late transport failure after the ack does not undo it.
        #expect(transcript.apply(.sendFailed(id: "k1", reason: "timeout")) == .ignored(.noSuchEntry))
        #expect(transcript.entries[0].status == .sent)
    }

    @Test func aFailedSendCanBeRetriedInPlaceOrDiscarded() {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hello", id: "k1")
        transcript.apply(.sendFailed(id: "k1", reason: "not connected"))
        #expect(transcript.entries[0].status == .failed("not connected"))
        #expect(transcript.activeRunIds.isEmpty)

        transcript.send("hello", id: "k1", at: 2_000)
        #expect(transcript.ids == ["k1"])
        #expect(transcript.entries[0].status == .sending)
        #expect(transcript.entries[0].timestampMs == 2_000)

        transcript.apply(.sendFailed(id: "k1", reason: "not connected"))
        #expect(transcript.apply(.discard(id: "k1")) == .applied)
        #expect(transcript.entries.isEmpty)
    }

    @Test func sendingTheSameIdTwiceIsADuplicate() {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hello", id: "k1")
        #expect(transcript.apply(.send(LocalSend(id: "k1", text: "hello", timestampMs: 5))) == .ignored(.duplicate))
        #expect(transcript.apply(.discard(id: "k1")) == .ignored(.noSuchEntry))
    }

    @Test func errorAckFailsTheSendAndOkAckAsksForHistory() {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("a", id: "k1")
        transcript.send("b", id: "k2")
        transcript.apply(.sendAcknowledged(ChatSendAck(runId: "k1", status: .error, summary: "model unavailable")))
        transcript.apply(.sendAcknowledged(ChatSendAck(runId: "k2", status: .ok)))
        #expect(transcript.entries.map(\.status) == [.failed("model unavailable"), .sent])
        #expect(transcript.pendingHistoryRefresh == .runFinishedUnseen(runId: "k2"))
        #expect(
            transcript.apply(.sendAcknowledged(ChatSendAck(runId: "nope", status: .started))) == .ignored(.noSuchEntry))
    }

    @Test func eventsBeforeTheAckConfirmTheSend() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("hi", id: "k1")
        try transcript.play(
            #"""
            {"type":"event","event":"chat","seq":1,"payload":{"runId":"k1","sessionKey":"main","seq":1,"state":"delta",
             "deltaText":"Hi"}}
            """#
        )
        #expect(transcript.entries[0].status == .sent)
    }
}
