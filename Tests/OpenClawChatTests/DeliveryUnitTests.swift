import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The pure parts of delivery under the gateway's rules: what a frame gap means per protocol version,
/// matching a send to history's cut copy, and the rows of stop commands and unconfirmed sends.
@Suite("Delivery rules: pure logic")
struct DeliveryUnitTests {
    @Test func aV4GapResyncsAtOnce() {
        var tracker = SequenceGapTracker()
        let v4 = tracker.gap(protocolVersion: .v4, runActive: true)
        let unknown = tracker.gap(protocolVersion: nil, runActive: true)
        let idle = tracker.gap(protocolVersion: .v3, runActive: false)
        #expect(v4 == .resyncNow && unknown == .resyncNow && idle == .resyncNow)
    }

    @Test func aV3GapDuringARunWaitsForItsEndOrASilentTick() {
        var tracker = SequenceGapTracker()
        #expect(tracker.gap(protocolVersion: .v3, runActive: true) == .waitForRunEnd)
        let first = tracker.tick()
        #expect(!first, "the first tick only starts the interval")
        tracker.runEvent(runActive: true)
        let second = tracker.tick()
        #expect(!second, "the run spoke during the interval")
        let third = tracker.tick()
        #expect(third, "a whole interval without the run: its end may be what was lost")
        #expect(!tracker.isWaiting)

        let again = tracker.gap(protocolVersion: .v3, runActive: true)
        #expect(again == .waitForRunEnd)
        tracker.runEvent(runActive: false)
        #expect(!tracker.isWaiting, "the run ended: its end fetches history anyway")
        let after = tracker.tick()
        #expect(!after)
    }

    @Test func historysCutCopyMatchesTheWholeSend() {
        let long = String(repeating: "e\u{301}xyz ", count: 4_000)
        let cut = String(long.prefix(12_000)) + StoredUserText.truncationMarker
        let stored = StoredUserText(ChatMessage(role: .user, content: [.text(cut)], timestampMs: 1))
        #expect(stored.matches(Transcript.comparableText(long)))
        #expect(!stored.matches("something else entirely"))
        let whole = StoredUserText(ChatMessage(role: .user, content: [.text("  hi  ")], timestampMs: 1))
        #expect(whole.matches("hi"))
        #expect(!whole.matches("hi there"))
    }

    @Test func onlyASendThatMayHaveLeftIsMatchedByText() {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "k1", text: "same words", timestampMs: 1, isAttempt: false)))
        transcript.apply(.sendQueued(id: "k1"))
        let page = ChatHistoryPage(
            sessionKey: "main",
            messages: [ChatMessage(role: .user, content: [.text("same words")], timestampMs: 2, entry: .init(id: "e1"))]
        )
        transcript.apply(.historyLoaded(page))
        #expect(transcript.entry(id: "k1")?.source == .local, "another client's message is not this unsent one")
        // Sent now: the next page's newer copy is this one.
        transcript.apply(.send(LocalSend(id: "k1", text: "same words", timestampMs: 1)))
        var next = page
        next.messages.append(
            ChatMessage(role: .user, content: [.text("same words")], timestampMs: 3, entry: .init(id: "e2")))
        transcript.apply(.historyLoaded(next))
        #expect(transcript.entry(id: "k1")?.source == .history)
        #expect(transcript.entry(id: "k1")?.message?.entry?.id == "e2")
    }

    @Test func aStopCommandsRowGoesAndAnUnconfirmedOneWaitsForTheUser() {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "stop", text: "/stop", timestampMs: 1)))
        #expect(transcript.apply(.sendHandledAsCommand(id: "stop")) == .applied)
        #expect(transcript.entries.isEmpty)

        transcript.apply(.send(LocalSend(id: "k2", text: "did it arrive?", timestampMs: 2)))
        transcript.apply(.sendUnconfirmed(id: "k2"))
        #expect(transcript.entry(id: "k2")?.status == .unconfirmed)
        #expect(transcript.apply(.send(LocalSend(id: "k2", text: "did it arrive?", timestampMs: 3))) == .applied)
        #expect(transcript.entry(id: "k2")?.status == .sending)
        transcript.apply(.sendUnconfirmed(id: "k2"))
        #expect(transcript.apply(.discard(id: "k2")) == .applied)
        #expect(transcript.entries.isEmpty)
    }
}
