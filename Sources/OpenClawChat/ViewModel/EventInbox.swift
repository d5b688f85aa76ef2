import Synchronization

/// Hands the connection's events to the main actor in batches.
///
/// A task off the main actor takes events from the connection (decoding them there) and posts them
/// here; the main actor is signalled only when the inbox goes from empty to not empty, and then takes
/// everything that arrived meanwhile. Waking the sleeping main thread costs more than reducing a delta,
/// so one wake per event capped a fast stream far below what the reducer can do; now a burst costs a
/// few wakes and events keep their order. A lone event takes one more hop, between pool threads.
final class EventInbox: Sendable {
    /// Events handled per main-actor turn when more than this many are waiting (the main actor is far
    /// behind a burst). Fewer waiting are handled one per turn, so observers see every state.
    static let catchUpSlice = 64

    private let pending = Mutex<[ChatStreamEvent]>([])
    /// One element per batch to take; never more than one waiting.
    let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    init() {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func post(_ event: ChatStreamEvent) {
        let wasEmpty = pending.withLock { events in
            defer { events.append(event) }
            return events.isEmpty
        }
        if wasEmpty { signal.yield() }
    }

    /// Everything posted since the last call, oldest first.
    func take() -> [ChatStreamEvent] {
        pending.withLock { events in
            defer { events = [] }
            return events
        }
    }

    /// No more events: the signals end once the last batch is signalled.
    func finish() { signal.finish() }
}
