import Synchronization

/// One subscriber's bounded buffer of connection events (see ``EventHub``).
final class EventSubscription: Sendable {
    private struct Entry {
        var event: GatewayEvent
        var cost: Int
    }

    private struct State {
        var entries: [Entry] = []
        /// Index of the next entry to take; entries before it are taken.
        var head = 0
        /// Absolute position of `entries[0]`: positions stay valid when taken entries are dropped.
        var base = 0
        var bytes = 0
        /// Position of the newest untaken cumulative event per key.
        var cumulative: [String: Int] = [:]
        var congested = false
        var overHeadroom = false
        var finished = false
        var waiter: CheckedContinuation<GatewayEvent?, Never>?

        var count: Int { entries.count - head }
    }

    let id: Int
    private weak let hub: EventHub?
    private let limits: EventHub.Limits
    private let state = Mutex(State())

    init(id: Int, hub: EventHub) {
        self.id = id
        self.hub = hub
        self.limits = hub.limits
    }

    deinit { hub?.remove(id) }

    var buffered: (events: Int, bytes: Int) { state.withLock { ($0.count, $0.bytes) } }

    /// Whether the subscriber is parked on an empty buffer: tests publish only then, to reach the path
    /// where the first event of a batch is handed over directly.
    var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    /// Buffers `batch` in order, merging cumulative events; a waiting subscriber gets the first event
    /// at once and finds the rest buffered.
    func push(_ batch: [EventHub.Publication]) {
        struct Outcome {
            var waiter: CheckedContinuation<GatewayEvent?, Never>?
            var first: GatewayEvent?
            var peak = (events: 0, bytes: 0)
            var coalesced = 0
            var freedReaders: [CheckedContinuation<Void, Never>] = []
        }
        let outcome = state.withLock { state -> Outcome in
            var outcome = Outcome()
            guard !state.finished else { return outcome }
            let before = (state.congested, state.overHeadroom)
            for publication in batch {
                if append(publication, to: &state, handingTo: &outcome.waiter, first: &outcome.first) {
                    outcome.coalesced += 1
                }
                outcome.peak = (max(outcome.peak.events, state.count), max(outcome.peak.bytes, state.bytes))
            }
            if before != (state.congested, state.overHeadroom) {
                outcome.freedReaders =
                    hub?.recordCongestion(id, state.congested, overHeadroom: state.overHeadroom) ?? []
            }
            return outcome
        }
        if outcome.peak.events > 0 || outcome.coalesced > 0 {
            hub?.noteBuffered(events: outcome.peak.events, bytes: outcome.peak.bytes, coalesced: outcome.coalesced)
        }
        for reader in outcome.freedReaders { reader.resume() }
        if let waiter = outcome.waiter { waiter.resume(returning: outcome.first) }
    }

    /// One event into the buffer: merged into the untaken one it supersedes (true), handed to the parked
    /// subscriber when it is the first since it parked, or appended.
    private func append(
        _ publication: EventHub.Publication, to state: inout State,
        handingTo waiter: inout CheckedContinuation<GatewayEvent?, Never>?, first: inout GatewayEvent?
    ) -> Bool {
        let (event, cost, flow) = (publication.event, publication.cost, publication.flow)
        switch flow {
        case .plain: break
        case .barrierAll: state.cumulative.removeAll()
        case .barrier(let key): state.cumulative.removeValue(forKey: key)
        case .cumulative(let key):
            if let position = state.cumulative[key], position - state.base >= state.head {
                let index = position - state.base
                state.bytes += cost - state.entries[index].cost
                state.entries[index] = Entry(event: event, cost: cost)
                return true
            }
        }
        if let parked = state.waiter {
            // Handed over directly: nothing of the buffer precedes it (the subscriber parked on an empty one).
            state.waiter = nil
            waiter = parked
            first = event
            return false
        }
        if case .cumulative(let key) = flow { state.cumulative[key] = state.base + state.entries.count }
        state.entries.append(Entry(event: event, cost: cost))
        state.bytes += cost
        if state.count >= limits.highWaterEvents || state.bytes >= limits.highWaterBytes { state.congested = true }
        let headroom = limits.requestHeadroom
        if state.count >= limits.highWaterEvents * headroom || state.bytes >= limits.highWaterBytes * headroom {
            state.overHeadroom = true
        }
        return false
    }

    func next(isolation actor: isolated (any Actor)? = #isolation) async -> GatewayEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: actor) {
                (continuation: CheckedContinuation<GatewayEvent?, Never>) in
                let (event, freedReaders) = take(orWait: continuation)
                for reader in freedReaders { reader.resume() }
                if let event { continuation.resume(returning: event) }
            }
        } onCancel: {
            finish()
        }
    }

    /// The events waiting, oldest first and at most `limit` of them; when none is waiting, the next one
    /// to arrive. Nil once finished. A consumer that must hop to another executor for the events (the
    /// main actor) then hops once per batch instead of once per delta.
    func next(upTo limit: Int, isolation actor: isolated (any Actor)? = #isolation) async -> [GatewayEvent]? {
        // A cancelled subscriber ends now, not once it has drained what waits: it would otherwise take the
        // next connection's events too, beside the task that replaced it.
        if Task.isCancelled {
            finish()
            return nil
        }
        let waiting = takeWaiting(upTo: limit)
        if !waiting.isEmpty { return waiting }
        guard let first = await next(isolation: actor) else { return nil }
        return limit > 1 ? [first] + takeWaiting(upTo: limit - 1) : [first]
    }

    private func takeWaiting(upTo limit: Int) -> [GatewayEvent] {
        let (events, freedReaders) = state.withLock { state -> ([GatewayEvent], [CheckedContinuation<Void, Never>]) in
            guard state.count > 0 else { return ([], []) }
            var events: [GatewayEvent] = []
            events.reserveCapacity(min(limit, state.count))
            var freedReaders: [CheckedContinuation<Void, Never>] = []
            while events.count < limit, state.count > 0 {
                let (event, readers) = take(from: &state)
                events.append(event)
                freedReaders += readers
            }
            return (events, freedReaders)
        }
        for reader in freedReaders { reader.resume() }
        return events
    }

    /// The oldest untaken event (`.some(nil)` once finished), or nil after parking `continuation`; and
    /// the socket readers that taking it freed.
    private func take(
        orWait continuation: CheckedContinuation<GatewayEvent?, Never>
    ) -> (GatewayEvent??, freedReaders: [CheckedContinuation<Void, Never>]) {
        state.withLock { state in
            guard state.count > 0 else {
                if state.finished { return (.some(nil), []) }
                state.waiter = continuation
                return (nil, [])
            }
            let (event, freedReaders) = take(from: &state)
            return (.some(event), freedReaders)
        }
    }

    /// Takes the oldest untaken event (there is one). When that brings the buffer back under its
    /// low-water mark, the hub hears of it under this lock (see ``EventHub/recordCongestion``), and the
    /// readers it frees are returned, to resume once the lock is released.
    private func take(from state: inout State) -> (GatewayEvent, freedReaders: [CheckedContinuation<Void, Never>]) {
        let entry = state.entries[state.head]
        state.head += 1
        state.bytes -= entry.cost
        if state.head >= 256, state.head * 2 >= state.entries.count {
            state.entries.removeFirst(state.head)
            state.base += state.head
            state.head = 0
        }
        guard state.congested, state.count <= limits.highWaterEvents / 4, state.bytes <= limits.highWaterBytes / 4
        else { return (entry.event, []) }
        state.congested = false
        state.overHeadroom = false
        return (entry.event, hub?.recordCongestion(id, false, overHeadroom: false) ?? [])
    }

    /// The subscriber is gone: drop what is buffered and stop holding the connection back.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<GatewayEvent?, Never>? in
            state.finished = true
            state.entries.removeAll()
            state.head = 0
            state.bytes = 0
            state.cumulative.removeAll()
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
        hub?.remove(id)
    }
}
