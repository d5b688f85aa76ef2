import OpenClawProtocol
import Synchronization
import Testing

@testable import OpenClawGateway

/// The first look at a message where it arrives (`InboundQueue.readEarly`): only a message with nothing
/// ahead of it, so nothing handled early overtakes what came before it.
@Suite("Reading messages as they arrive")
struct EarlyReadTests {
    @Test func aMessageWithNothingAheadIsReadEarlyAndWhatItHandlesIsNotQueued() async {
        let queue = InboundQueue()
        let seen = Seen()
        queue.readEarly { event in
            seen.append(event)
            return event == .text("answer") ? .handled : .untouched
        }
        queue.push(.text("answer"))
        #expect(queue.stats.bufferedFrames == 0)
        queue.push(.text("event"))
        #expect(seen.all == [.text("answer"), .text("event")])
        #expect(await queue.nextFrames(upTo: 8)?.map(\.event) == [.text("event")])
    }

    @Test func aMessageBehindAQueuedOneIsQueuedUnread() async {
        let queue = InboundQueue()
        let seen = Seen()
        queue.readEarly { event in
            seen.append(event)
            return .untouched
        }
        queue.push(.text("first"))
        queue.push(.text("second"))
        #expect(seen.all == [.text("first")])
        #expect(await queue.nextFrames(upTo: 8)?.map(\.event) == [.text("first"), .text("second")])
    }

    @Test func aMessageArrivingWhileTheReaderHandlesABatchWaitsForIt() async {
        let queue = InboundQueue()
        let seen = Seen()
        queue.readEarly { event in
            seen.append(event)
            return .untouched
        }
        queue.push(.text("event"))
        #expect(await queue.nextFrames(upTo: 8)?.count == 1)
        queue.push(.text("answer while the event is handled"))
        #expect(seen.all == [.text("event")])
        queue.batchHandled()
        _ = await queue.nextFrames(upTo: 8)
        queue.batchHandled()
        queue.push(.text("answer once it was handled"))
        #expect(seen.all == [.text("event"), .text("answer once it was handled")])
    }

    @Test func aMessageHandedToAWaitingReaderCountsAsBeingHandled() async {
        let queue = InboundQueue()
        let seen = Seen()
        queue.readEarly { event in
            seen.append(event)
            return .untouched
        }
        async let batch = queue.nextFrames(upTo: 8)
        await Self.waitUntil { queue.hasWaitingReader }
        queue.push(.text("event"))
        #expect(await batch?.map(\.event) == [.text("event")])
        queue.push(.text("answer"))
        #expect(seen.all == [.text("event")], "the event handed over is not handled yet")
    }

    @Test func whatWasDecodedEarlyReachesTheReader() async {
        let queue = InboundQueue()
        let frame = GatewayFrame.response(ResponseFrame(id: "r", ok: true))
        queue.readEarly { _ in .decoded(.success(frame)) }
        queue.push(.text("{}"))
        let taken = await queue.nextFrames(upTo: 8)
        #expect(taken?.first?.decoded == .success(frame))
    }

    @Test func theSocketsEndIsNeverReadEarly() async {
        let queue = InboundQueue()
        let seen = Seen()
        queue.readEarly { event in
            seen.append(event)
            return .handled
        }
        queue.push(.closed(code: 1000))
        #expect(seen.all.isEmpty)
        #expect(await queue.nextFrames(upTo: 8)?.map(\.event) == [.closed(code: 1000)])
    }

    static func waitUntil(_ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition(), ContinuousClock.now < deadline { await Task.yield() }
    }
}

private final class Seen: Sendable {
    private let events = Mutex<[TransportEvent]>([])
    func append(_ event: TransportEvent) { events.withLock { $0.append(event) } }
    var all: [TransportEvent] { events.withLock { $0 } }
}
