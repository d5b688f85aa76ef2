import Synchronization

/// How an event may be merged with one its subscriber has not taken yet.
enum EventFlow: Sendable, Equatable {
    case plain
    /// Carries everything an earlier event with the same key carried (a v3 delta holds the whole
    /// reply so far): it replaces that event, in its place, while the subscriber is behind.
    case cumulative(key: String)
    /// Must not be merged across (another event of the same run): the key's merging ends here.
    case barrier(key: String)
    /// Ends all merging (a socket began or ended).
    case barrierAll
}

/// What the connection's event subscribers hold and have held, for tests and diagnostics.
public struct EventFlowStats: Sendable, Equatable {
    /// Summed over live subscriptions: events waiting to be taken, and the bytes of their frames.
    public var bufferedEvents = 0
    public var bufferedBytes = 0
    /// The most any one subscription ever held.
    public var peakBufferedEvents = 0
    public var peakBufferedBytes = 0
    /// Events merged into a newer one (cumulative deltas) instead of being queued.
    public var coalescedEvents = 0
    /// How often the socket's reader waited for a subscriber to catch up.
    public var readerWaits = 0

    public init() {}
}

/// Fans the connection's events out to any number of subscribers, each with a bounded buffer.
///
/// Subscriptions outlive sockets. When a subscriber falls behind by more than the high-water mark,
/// the socket's reader waits (`waitForRoom`) until every subscriber is back under the low-water
/// mark, and the transport stops reading the socket: memory stays bounded and the gateway is pushed
/// back. Cumulative v3 deltas do not count against that: only the newest one of a run is kept.
/// A subscription that is never iterated therefore holds the connection back; it ends when its
/// iterating task is cancelled or the sequence and its iterators are released.
final class EventHub: Sendable {
    struct Limits: Sendable {
        var highWaterEvents = 1024
        var highWaterBytes = 8 << 20
        /// While a request is pending the reader keeps reading up to this many times the mark: its
        /// response may be behind the events, and the subscriber may be waiting for it.
        var requestHeadroom = 8
    }

    private struct State {
        var nextID = 0
        var subscriptions: [Int: WeakSubscription] = [:]
        var congested: Set<Int> = []
        var overHeadroom: Set<Int> = []
        var roomWaiters: [Int: (headroom: Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextWaiter = 0
        /// Requests started so far: a reader compares it with what it read before a batch, so a request
        /// started while no reader waited (its wake-up lost) still gives the reader its headroom.
        var requestsStarted = 0
        var stats = EventFlowStats()

        /// Whether a reader gets the request headroom: a request was pending when it looked, or one has
        /// started since (`before`, the count it read then).
        func headroom(pending: Bool, startedBefore before: Int?) -> Bool {
            pending || before.map { $0 != requestsStarted } ?? false
        }

        /// The subscribers that hold a reader with, or without, the request headroom.
        func holders(headroom: Bool) -> Set<Int> { headroom ? overHeadroom : congested }
    }

    /// How many requests have started; the reader reads it before a batch (see `waitForRoom`).
    var requestsStarted: Int { state.withLock { $0.requestsStarted } }

    private struct WeakSubscription {
        weak var value: EventSubscription?
    }

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    func subscribe() -> GatewayEvents {
        let subscription = state.withLock { state -> EventSubscription in
            let id = state.nextID
            state.nextID += 1
            let subscription = EventSubscription(id: id, hub: self)
            state.subscriptions[id] = WeakSubscription(value: subscription)
            return subscription
        }
        return GatewayEvents(subscription: subscription)
    }

    /// One event as the connection publishes it.
    struct Publication: Sendable {
        var event: GatewayEvent
        /// The frame's size, counted against the subscribers' byte marks.
        var cost = 0
        var flow = EventFlow.plain
    }

    func publish(_ event: GatewayEvent, cost: Int = 0, flow: EventFlow = .plain) {
        publish([Publication(event: event, cost: cost, flow: flow)])
    }

    /// Hands `batch` to every subscriber in one step each: what one read of the socket delivered costs
    /// one lock and one wake-up per subscriber, not one per delta.
    func publish(_ batch: [Publication]) {
        guard !batch.isEmpty else { return }
        let subscriptions = state.withLock { state in state.subscriptions.values.compactMap(\.value) }
        for subscription in subscriptions { subscription.push(batch) }
    }

    var stats: EventFlowStats {
        let (stats, subscriptions) = state.withLock { ($0.stats, $0.subscriptions.values.compactMap(\.value)) }
        var result = stats
        for subscription in subscriptions {
            let (events, bytes) = subscription.buffered
            result.bufferedEvents += events
            result.bufferedBytes += bytes
        }
        return result
    }

    /// Returns once no subscriber is over its high-water mark (at once when none is), or when the
    /// calling task is cancelled. With `headroom` (a request is pending) only subscribers over the
    /// request headroom hold the reader: the response may be behind the events a subscriber waits
    /// with, and the request's timeout ends the wait at the latest. A request started since
    /// `requestsStartedBefore` counts as pending: it may have started between the caller's look at the
    /// pending requests and this wait, when no wait was there to be woken.
    func waitForRoom(headroom: Bool = false, requestsStartedBefore: Int? = nil) async {
        let id = state.withLock { state -> Int? in
            let headroom = state.headroom(pending: headroom, startedBefore: requestsStartedBefore)
            guard !state.holders(headroom: headroom).isEmpty else { return nil }
            state.nextWaiter += 1
            state.stats.readerWaits += 1
            return state.nextWaiter
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    let headroom = state.headroom(pending: headroom, startedBefore: requestsStartedBefore)
                    if state.holders(headroom: headroom).isEmpty || Task.isCancelled { return true }
                    state.roomWaiters[id] = (headroom, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.roomWaiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// A request is pending: a reader held at the high-water mark reads on unless a subscriber is
    /// over the request headroom (it re-checks with `headroom` on its next wait).
    func requestStarted() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.requestsStarted += 1
            guard state.overHeadroom.isEmpty else { return [] }
            defer { state.roomWaiters.removeAll() }
            return state.roomWaiters.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Called by subscriptions

    func noteBuffered(events: Int, bytes: Int, coalesced: Int) {
        state.withLock { state in
            state.stats.peakBufferedEvents = max(state.stats.peakBufferedEvents, events)
            state.stats.peakBufferedBytes = max(state.stats.peakBufferedBytes, bytes)
            state.stats.coalescedEvents += coalesced
        }
    }

    func setCongested(_ id: Int, _ congested: Bool, overHeadroom: Bool) {
        for waiter in recordCongestion(id, congested, overHeadroom: overHeadroom) { waiter.resume() }
    }

    /// Records subscription `id`'s marks and returns the room waiters this frees, to resume once every
    /// lock is released. A subscription calls it while holding its own lock, so the hub sees its
    /// changes in the order they happened: a relief recorded before the congestion it relieves would
    /// leave the reader waiting for good (the reader is what makes the next change).
    func recordCongestion(_ id: Int, _ congested: Bool, overHeadroom: Bool) -> [CheckedContinuation<Void, Never>] {
        state.withLock { state in
            if congested { state.congested.insert(id) } else { state.congested.remove(id) }
            if overHeadroom { state.overHeadroom.insert(id) } else { state.overHeadroom.remove(id) }
            let ready = state.roomWaiters.filter { _, waiter in
                state.holders(headroom: waiter.headroom).isEmpty
            }
            for id in ready.keys { state.roomWaiters[id] = nil }
            return ready.values.map(\.continuation)
        }
    }

    func remove(_ id: Int) {
        state.withLock { _ = $0.subscriptions.removeValue(forKey: id) }
        setCongested(id, false, overHeadroom: false)
    }
}

/// Every event the connection publishes after subscribing, in order (cumulative deltas merged while
/// behind). Iterate it from one task.
public struct GatewayEvents: AsyncSequence, Sendable {
    public typealias Element = GatewayEvent
    public typealias Failure = Never

    let subscription: EventSubscription

    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: EventSubscription

        public mutating func next() async -> GatewayEvent? { await subscription.next() }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> GatewayEvent? {
            await subscription.next(isolation: actor)
        }

        /// The events waiting (at most `limit`), or the next one to arrive; nil once the sequence ends.
        package mutating func next(
            upTo limit: Int, isolation actor: isolated (any Actor)? = #isolation
        ) async -> [GatewayEvent]? {
            await subscription.next(upTo: limit, isolation: actor)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: subscription) }
}
