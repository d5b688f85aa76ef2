import OpenClawProtocol
import Synchronization

/// How much one socket holds that its reader has not taken yet, for tests and diagnostics.
public struct TransportFlowStats: Sendable, Equatable {
    /// Messages received and not yet taken, and their bytes.
    public var bufferedFrames = 0
    public var bufferedBytes = 0
    /// The most ever held at once on this socket.
    public var peakBufferedFrames = 0
    public var peakBufferedBytes = 0
    /// How often reading the socket was stopped because the reader was behind.
    public var readPauses = 0
    /// Pings received from the peer and pongs we answered them with (at most one per interval).
    public var pingsReceived = 0
    public var pongsSent = 0

    public init() {}
}

/// The bounded buffer between a socket's event loop and the task that reads its messages.
///
/// The event loop pushes; when the buffer holds more than its high-water mark the socket stops being
/// read (``pauseReading``) and TCP pushes back on the gateway; when the reader has taken enough to
/// reach the low-water mark, reading resumes. So a gateway that sends faster than we consume costs at
/// most the high-water mark plus what one read of the socket delivers, never everything it sends.
final class InboundQueue: Sendable {
    struct Limits: Sendable {
        var highWaterBytes = 4 << 20
        var highWaterFrames = 1024
        var lowWaterBytes: Int { highWaterBytes / 4 }
        var lowWaterFrames: Int { highWaterFrames / 4 }
    }

    /// What a first look at a message decided (see ``readEarly(_:)``).
    enum EarlyReading: Sendable {
        /// Taken care of: the message is not queued.
        case handled
        /// Queued with what it decoded to, so the reader does not decode it again.
        case decoded(Result<GatewayFrame, FrameDecodingError>)
        /// Queued as it is.
        case untouched
    }

    typealias EarlyReader = @Sendable (TransportEvent) -> EarlyReading

    private struct State {
        var items: [InboundFrame] = []
        var head = 0
        var sizes: [Int] = []
        var stats = TransportFlowStats()
        var paused = false
        var finished = false
        var waiter: CheckedContinuation<InboundFrame?, Never>?
        /// The reader took messages and has not said it is done with them (``batchHandled()``).
        var handling = false
        var early: EarlyReader?
        var lastReceived = ContinuousClock.now
        var peerCloseReason: String?
        var oversized = false

        var count: Int { items.count - head }
    }

    private let state = Mutex(State())
    private let limits: Limits
    /// Called (once per pause) when reading must resume; set when the socket is wired up.
    private let resumeHook = Mutex<(@Sendable () -> Void)?>(nil)

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    func onResume(_ hook: @escaping @Sendable () -> Void) { resumeHook.withLock { $0 = hook } }

    /// Whether the socket must not be read now.
    var isPaused: Bool { state.withLock { $0.paused } }

    var stats: TransportFlowStats { state.withLock { $0.stats } }

    /// When the socket last delivered anything (a message, a ping, a pong, a close).
    var lastReceived: ContinuousClock.Instant { state.withLock { $0.lastReceived } }

    func noteActivity() { state.withLock { $0.lastReceived = .now } }

    func notePing(answered: Bool) {
        state.withLock {
            $0.stats.pingsReceived += 1
            if answered { $0.stats.pongsSent += 1 }
            $0.lastReceived = .now
        }
    }

    /// The close frame the peer sent: its reason text is reported with the close code.
    func notePeerClose(code: Int?, reason: String?) {
        state.withLock {
            $0.peerCloseReason = reason
            $0.lastReceived = .now
        }
    }

    var peerCloseReason: String? { state.withLock { $0.peerCloseReason } }

    /// A message went over `limitBytes`: the events end here, at once, with ``TransportEvent/tooLarge(limitBytes:)``
    /// — not when the socket's close completes, which a peer still writing can delay for as long as
    /// it likes — and nothing that arrives after it is delivered.
    func markOversized(limitBytes: Int) {
        let first = state.withLock { state in
            defer { state.oversized = true }
            return !state.oversized
        }
        if first { push(.tooLarge(limitBytes: limitBytes)) }
    }

    var oversized: Bool { state.withLock { $0.oversized } }

    func notePongSent() { state.withLock { $0.stats.pongsSent += 1 } }

    /// Has `reader` look at each message that arrives while nothing is ahead of it (none waiting and
    /// none being handled, see ``batchHandled()``), where it arrives (the socket's event loop), before
    /// it is queued: what it handles never waits for the task that reads the queue, and what it
    /// decodes is not decoded again.
    ///
    /// Messages behind others are queued as they are, so `reader` never sees one before those that
    /// came first have been handled. It is called under the queue's lock (a second message cannot
    /// overtake the first meanwhile) and must not call back into the queue.
    func readEarly(_ reader: @escaping EarlyReader) { state.withLock { $0.early = reader } }

    /// The reader is done with what it took: nothing it took can still be seen to happen after a
    /// message that arrives now.
    func batchHandled() { state.withLock { $0.handling = false } }

    /// A reader waits for the next message (for tests).
    var hasWaitingReader: Bool { state.withLock { $0.waiter != nil } }

    func push(_ event: TransportEvent) {
        let size = event.byteCount
        let waiter = state.withLock { state -> (CheckedContinuation<InboundFrame?, Never>, InboundFrame)? in
            guard !state.finished else { return nil }
            state.lastReceived = .now
            var frame = InboundFrame(event: event)
            if event.isMessage, !state.handling, state.count == 0, let early = state.early {
                switch early(event) {
                case .handled: return nil
                case .decoded(let decoded): frame.decoded = decoded
                case .untouched: break
                }
            }
            if !event.isMessage { state.finished = true }
            if let waiter = state.waiter {
                state.waiter = nil
                state.handling = true
                return (waiter, frame)
            }
            state.items.append(frame)
            state.sizes.append(size)
            state.stats.bufferedFrames += 1
            state.stats.bufferedBytes += size
            state.stats.peakBufferedFrames = max(state.stats.peakBufferedFrames, state.stats.bufferedFrames)
            state.stats.peakBufferedBytes = max(state.stats.peakBufferedBytes, state.stats.bufferedBytes)
            if !state.paused,
                state.stats.bufferedBytes >= limits.highWaterBytes
                    || state.stats.bufferedFrames >= limits.highWaterFrames
            {
                state.paused = true
                state.stats.readPauses += 1
            }
            return nil
        }
        if let (waiter, frame) = waiter { waiter.resume(returning: frame) }
    }

    /// The next message, or nil once the socket's `.closed` has been taken.
    func next() async -> TransportEvent? {
        await next(upTo: 1)?.first
    }

    /// Like ``nextFrames(upTo:)``, for readers that want the events alone.
    func next(upTo limit: Int) async -> [TransportEvent]? {
        await nextFrames(upTo: limit)?.map(\.event)
    }

    /// The messages waiting, oldest first and at most `limit` of them; when none is waiting, the next one
    /// to arrive. Nil once the socket's `.closed` has been taken.
    ///
    /// A reader that hops to another executor for each message pays that hop per delta of a streamed
    /// reply; taking what a read of the socket delivered at once pays it once per read.
    ///
    /// Each taken message counts as being handled until ``batchHandled()``.
    func nextFrames(upTo limit: Int) async -> [InboundFrame]? {
        let waiting = takeWaiting(upTo: limit)
        if !waiting.isEmpty { return waiting }
        let first = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<InboundFrame?, Never>) in
                let (event, resume) = state.withLock { state -> (InboundFrame??, Bool) in
                    if state.count > 0 {
                        state.handling = true
                        return (.some(take(from: &state)), resumeIfDrained(&state))
                    }
                    if state.finished || Task.isCancelled { return (.some(nil), false) }
                    // A reader that took `.closed` is done; anything else waits for the next push.
                    state.waiter = continuation
                    return (nil, false)
                }
                if resume { resumeHook.withLock { $0 }?() }
                if let event { continuation.resume(returning: event) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
        return first.map { [$0] }
    }

    /// The messages already waiting, oldest first, at most `limit` of them.
    private func takeWaiting(upTo limit: Int) -> [InboundFrame] {
        let (events, resume) = state.withLock { state -> ([InboundFrame], Bool) in
            guard state.count > 0 else { return ([], false) }
            state.handling = true
            var events: [InboundFrame] = []
            events.reserveCapacity(min(limit, state.count))
            while events.count < limit, state.count > 0 { events.append(take(from: &state)) }
            return (events, resumeIfDrained(&state))
        }
        if resume { resumeHook.withLock { $0 }?() }
        return events
    }

    private func take(from state: inout State) -> InboundFrame {
        let event = state.items[state.head]
        let size = state.sizes[state.head]
        state.head += 1
        state.stats.bufferedFrames -= 1
        state.stats.bufferedBytes -= size
        if state.head > 64, state.head * 2 > state.items.count {
            state.items.removeFirst(state.head)
            state.sizes.removeFirst(state.head)
            state.head = 0
        }
        return event
    }

    /// Whether reading the socket must resume now: it was paused and the reader has taken enough.
    private func resumeIfDrained(_ state: inout State) -> Bool {
        guard state.paused, state.stats.bufferedBytes <= limits.lowWaterBytes,
            state.stats.bufferedFrames <= limits.lowWaterFrames
        else { return false }
        state.paused = false
        return true
    }

    /// Nothing more arrives (the socket could not be opened): a waiting reader gets nil.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}

/// A message as the reader takes it: the event, and what it decoded to when it was decoded on arrival
/// (see `InboundQueue.readEarly(_:)`).
struct InboundFrame: Sendable {
    var event: TransportEvent
    var decoded: Result<GatewayFrame, FrameDecodingError>?

    init(event: TransportEvent, decoded: Result<GatewayFrame, FrameDecodingError>? = nil) {
        self.event = event
        self.decoded = decoded
    }
}

/// A socket's messages in arrival order, ending after `.closed`. Only one reader may take them.
public struct TransportEvents: AsyncSequence, Sendable {
    public typealias Element = TransportEvent
    public typealias Failure = Never

    let queue: InboundQueue

    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: InboundQueue
        public mutating func next() async -> TransportEvent? { await queue.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }

    /// Events pushed by a test's own transport (see ``TransportEventsSource``).
    public static func makeSource() -> (TransportEvents, TransportEventsSource) {
        let queue = InboundQueue()
        return (TransportEvents(queue: queue), TransportEventsSource(queue: queue))
    }
}

/// The writing end of a ``TransportEvents`` for transports other than the live one.
public struct TransportEventsSource: Sendable {
    let queue: InboundQueue
    public func yield(_ event: TransportEvent) { queue.push(event) }
    public func finish() { queue.finish() }
    public var stats: TransportFlowStats { queue.stats }
    public var lastReceived: ContinuousClock.Instant { queue.lastReceived }
}

extension TransportEvent {
    /// A text or binary message, not the socket's end.
    var isMessage: Bool {
        switch self {
        case .text, .binary: true
        case .closed, .tooLarge: false
        }
    }

    var byteCount: Int {
        switch self {
        case .text(let text): return text.utf8.count
        case .binary(let bytes): return bytes.count
        case .closed, .tooLarge: return 0
        }
    }
}
