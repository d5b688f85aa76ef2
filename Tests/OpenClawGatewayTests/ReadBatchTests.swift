import OpenClawProtocol
import Synchronization
import Testing

@testable import OpenClawGateway

/// The socket's reader and the main actor take what is waiting in batches (one hop per batch, not per
/// frame): order, the batch limit, and the flow marks must hold as they did one frame at a time.
@Suite("Batched reading")
struct ReadBatchTests {
    @Test func theQueueHandsOverWhatIsWaitingInOrderAtMostTheLimit() async {
        let queue = InboundQueue()
        for index in 0..<5 { queue.push(.text("f\(index)")) }
        #expect(await queue.next(upTo: 3) == [.text("f0"), .text("f1"), .text("f2")])
        #expect(await queue.next(upTo: 10) == [.text("f3"), .text("f4")])
        queue.push(.closed(code: 1000))
        queue.push(.text("after the close"))
        #expect(await queue.next(upTo: 10) == [.closed(code: 1000)])
        #expect(await queue.next(upTo: 10) == nil)
    }

    @Test func aReaderWaitingOnAnEmptyQueueGetsTheNextFrame() async {
        let queue = InboundQueue()
        async let batch = queue.next(upTo: 64)
        try? await Task.sleep(for: .milliseconds(20))
        queue.push(.text("late"))
        #expect(await batch == [.text("late")])
    }

    @Test func takingABatchResumesAPausedSocketOnceBelowTheLowMark() async {
        var limits = InboundQueue.Limits()
        limits.highWaterFrames = 8
        let queue = InboundQueue(limits: limits)
        let resumes = Counter()
        queue.onResume { resumes.increment() }
        for index in 0..<8 { queue.push(.text("f\(index)")) }
        #expect(queue.isPaused)
        #expect(await queue.next(upTo: 4)?.count == 4)
        #expect(queue.isPaused, "4 left: above the low mark of 2")
        #expect(resumes.value == 0)
        #expect(await queue.next(upTo: 4)?.count == 4)
        #expect(!queue.isPaused)
        #expect(resumes.value == 1)
        #expect(queue.stats.bufferedFrames == 0 && queue.stats.bufferedBytes == 0)
    }

    @Test func aSubscriberTakesItsEventsInBatchesInOrder() async {
        let hub = EventHub()
        let events = hub.subscribe()
        var iterator = events.makeAsyncIterator()
        for seq in 1...5 { hub.publish(.gap(expected: seq, received: seq + 1)) }
        let first = await iterator.next(upTo: 2)
        let rest = await iterator.next(upTo: 64)
        #expect(first == [.gap(expected: 1, received: 2), .gap(expected: 2, received: 3)])
        #expect(rest?.map(Self.expected) == [3, 4, 5])
        #expect(hub.stats.bufferedEvents == 0)
    }

    @Test func aCancelledSubscriberEndsAtOnceThoughEventsWait() async {
        let hub = EventHub()
        let events = hub.subscribe()
        for seq in 1...5 { hub.publish(.gap(expected: seq, received: seq + 1)) }
        let taker = Task {
            var iterator = events.makeAsyncIterator()
            withUnsafeCurrentTask { $0?.cancel() }
            return await iterator.next(upTo: 64)
        }
        #expect(await taker.value == nil, "nothing after cancellation, though five events waited")
        hub.publish(.gap(expected: 9, received: 10))
        #expect(hub.stats.bufferedEvents == 0, "the ended subscription takes no more events")
    }

    @Test(.timeLimit(.minutes(1))) func aSubscriberBackUnderItsMarkReleasesTheReader() async {
        var limits = EventHub.Limits()
        limits.highWaterEvents = 8
        let hub = EventHub(limits: limits)
        let events = hub.subscribe()
        var iterator = events.makeAsyncIterator()
        for seq in 1...8 { hub.publish(.gap(expected: seq, received: seq + 1)) }
        let reader = Task { await hub.waitForRoom() }
        for _ in 0..<500 where hub.stats.readerWaits == 0 { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(hub.stats.readerWaits == 1, "the reader waits: the subscriber is at its mark")
        #expect(await iterator.next(upTo: 8)?.count == 8)
        await reader.value
    }

    private static func expected(_ event: GatewayEvent) -> Int? {
        if case .gap(let expected, _) = event { return expected }
        return nil
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
