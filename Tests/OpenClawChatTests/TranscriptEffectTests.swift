import OpenClawChat
import OpenClawProtocol
import Testing

/// The reducer says what its driver must do: a history fetch when a run ends or events were lost, and
/// nothing for a delta or once the page is in.
@Suite("Transcript effects")
struct TranscriptEffectTests {
    @Test func aRunsEndAsksForHistoryUntilThePageIsApplied() throws {
        var transcript = Transcript(sessionKey: "main")
        #expect(transcript.reduce(.send(LocalSend(id: "r1", text: "hi", timestampMs: 1))).isEmpty)
        let delta = try Recording.action(
            #"{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"agent:main:main","seq":1,"state":"delta","deltaText":"He"}}"#
        )
        #expect(transcript.reduce(delta) == [.sendAccepted(id: "r1")], "the run's first event proves the send")
        let next = try Recording.action(
            #"{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"agent:main:main","seq":2,"state":"delta","deltaText":"ll"}}"#
        )
        #expect(transcript.reduce(next).isEmpty, "a further delta asks for nothing")
        let final = try Recording.action(
            #"{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"agent:main:main","seq":3,"state":"final","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}],"timestamp":5}}}"#
        )
        #expect(transcript.reduce(final) == [.fetchHistory(.runEnded(runId: "r1"))])
        // Still asked for with the next action while no fetch has begun (the driver may have been offline).
        #expect(transcript.reduce(.sendQueued(id: "none")) == [.fetchHistory(.runEnded(runId: "r1"))])
        #expect(transcript.reduce(.historyRequested).isEmpty)
        let page = try Recording.action(
            #"{"type":"res","id":"2","ok":true,"payload":{"sessionKey":"agent:main:main","messages":[{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1},{"role":"assistant","content":[{"type":"text","text":"Hello"}],"timestamp":5}]}}"#
        )
        #expect(transcript.reduce(page).isEmpty)
        #expect(transcript.texts == ["hi", "Hello"])
    }

    /// A message whose answer was lost (queued for a resend) is proved delivered by its run's events:
    /// the driver must tell the outbox, which the row then follows. Another client's run proves nothing
    /// of ours.
    @Test func aRunsEventsProveItsQueuedSend() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "mine", text: "hi", timestampMs: 1)))
        transcript.apply(.delivery(id: "mine", status: .queued))
        let theirs = try Recording.action(
            #"{"type":"event","event":"chat","payload":{"runId":"theirs","sessionKey":"agent:main:main","seq":1,"state":"delta","deltaText":"x"}}"#
        )
        #expect(transcript.reduce(theirs).isEmpty)
        let mine = try Recording.action(
            #"{"type":"event","event":"chat","payload":{"runId":"mine","sessionKey":"agent:main:main","seq":1,"state":"delta","deltaText":"He"}}"#
        )
        #expect(transcript.reduce(mine) == [.sendAccepted(id: "mine")])
        #expect(transcript.entry(id: "mine")?.status == .sent)
    }

    /// A message typed offline never left: events naming its id are not its run's (forged, or a
    /// hostile gateway's), so they prove nothing and the row keeps waiting to be sent.
    @Test func eventsNamingANeverSentMessageProveNothing() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "offline", text: "hi", timestampMs: 1, isAttempt: false)))
        transcript.apply(.delivery(id: "offline", status: .queued))
        let forged = try Recording.action(
            #"{"type":"event","event":"chat","payload":{"runId":"offline","sessionKey":"agent:main:main","seq":1,"state":"delta","deltaText":"x"}}"#
        )
        #expect(!transcript.reduce(forged).contains(.sendAccepted(id: "offline")))
        #expect(transcript.entry(id: "offline")?.status == .queued)
    }

    @Test func lostEventsAskForHistory() {
        var transcript = Transcript(sessionKey: "main")
        #expect(transcript.reduce(.resyncNeeded(.sequenceGap)) == [.fetchHistory(.resync(.sequenceGap))])
    }
}
