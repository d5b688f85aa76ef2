import OpenClawProtocol
import OpenClawTestSupport
import Synchronization
import Testing

@testable import OpenClawChat

/// The view model's inbox is bounded: whole-text deltas of a run are merged while the main actor is
/// behind, appending deltas are all kept, and a full inbox makes the relay wait.
@Suite("Event inbox bounds")
struct EventInboxTests {
    static func snapshot(_ text: String, run: String = "r1") -> ChatStreamEvent {
        .chat(
            ChatEvent(
                runId: run, sessionKey: "main", seq: nil, state: .delta,
                message: ChatMessage(role: .assistant, content: [.text(text)])))
    }

    static func append(_ text: String, run: String = "r1") -> ChatStreamEvent {
        .chat(ChatEvent(runId: run, sessionKey: "main", seq: nil, state: .delta, deltaText: text))
    }

    @Test func wholeTextDeltasOfARunAreMergedInPlace() async {
        let inbox = EventInbox()
        for index in 1...500 { await inbox.post(Self.snapshot(String(repeating: "a", count: index))) }
        await inbox.post(Self.snapshot("other run", run: "r2"))
        let batch = inbox.take()
        #expect(batch == [Self.snapshot(String(repeating: "a", count: 500)), Self.snapshot("other run", run: "r2")])
        #expect(inbox.stats.peakPending == 2)
        #expect(inbox.stats.coalesced == 499)
    }

    @Test func appendingDeltasAreNeverMergedAndNothingMergesAcrossThem() async {
        let inbox = EventInbox()
        await inbox.post(Self.snapshot("a"))
        for _ in 0..<300 { await inbox.post(Self.append("b")) }
        await inbox.post(Self.snapshot("ab"))
        let batch = inbox.take()
        #expect(batch.count == 302)
        #expect(batch.first == Self.snapshot("a"))
        #expect(batch.last == Self.snapshot("ab"))
        #expect(inbox.stats.coalesced == 0)
    }

    @Test func aFullInboxMakesThePosterWaitUntilTaken() async {
        let inbox = EventInbox()
        for index in 0..<EventInbox.highWater { await inbox.post(Self.append("\(index)")) }
        let posted = Atomic(false)
        let poster = Task {
            await inbox.post(Self.append("one too many"))
            posted.store(true, ordering: .sequentiallyConsistent)
        }
        // The poster is parked on the full inbox.
        #expect(await eventually { inbox.stats.posterWaiting })
        let postedWhileFull = posted.load(ordering: .sequentiallyConsistent)
        #expect(!postedWhileFull)
        #expect(inbox.take().count == EventInbox.highWater)
        await poster.value
        let postedAfterTake = posted.load(ordering: .sequentiallyConsistent)
        #expect(postedAfterTake)
        #expect(inbox.take() == [Self.append("one too many")])
    }
}
