import Synchronization
import Testing

@testable import OpenClawGateway

/// The socket's reader, held by a subscriber that is behind, reads on while a request is pending (its
/// answer may be behind the events). A request that starts between the reader's look at the pending
/// requests and its wait finds no wait to wake; the wait must see it all the same, or the answer stays
/// behind the events until the request times out (found by an attack review).
@Suite("The reader's wake-up when a request starts")
struct ReaderWakeUpTests {
    @Test(.timeLimit(.minutes(1))) func aRequestStartedBeforeTheWaitStillLetsTheReaderReadOn() async {
        let hub = EventHub()
        hub.setCongested(0, true, overHeadroom: false)
        let before = hub.requestsStarted
        // The request starts after the reader looked (no request pending then) and before it waits.
        hub.requestStarted()
        let returned = Mutex(false)
        let reader = Task {
            await hub.waitForRoom(headroom: false, requestsStartedBefore: before)
            returned.withLock { $0 = true }
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while !returned.withLock({ $0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let didReturn = returned.withLock { $0 }
        reader.cancel()
        await reader.value
        #expect(didReturn, "the reader waited for the congested subscriber although a request had started")
    }

    @Test(.timeLimit(.minutes(1))) func withNoRequestStartedTheCongestedSubscriberHoldsTheReader() async {
        let hub = EventHub()
        hub.setCongested(0, true, overHeadroom: false)
        let before = hub.requestsStarted
        let returned = Mutex(false)
        let reader = Task {
            await hub.waitForRoom(headroom: false, requestsStartedBefore: before)
            returned.withLock { $0 = true }
        }
        try? await Task.sleep(for: .milliseconds(200))
        #expect(!returned.withLock { $0 }, "nothing changed: the reader waits")
        hub.setCongested(0, false, overHeadroom: false)
        await reader.value
        #expect(returned.withLock { $0 })
    }
}
