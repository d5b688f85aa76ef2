import OpenClawProtocol
import Synchronization

/// Hands the connection's events to the main actor in batches, holding a bounded number.
///
/// A task off the main actor takes events from the connection (decoding them there) and posts them
/// here; the main actor is signalled only when the inbox goes from empty to not empty, and then takes
/// everything that arrived meanwhile. Waking the sleeping main thread costs more than reducing a delta,
/// so one wake per event capped a fast stream far below what the reducer can do; now a burst costs a
/// few wakes and events keep their order. A lone event takes one more hop, between pool threads.
///
/// Bounded: with ``highWater`` events waiting, `post` waits until the main actor takes them, so the
/// relay stops taking from the connection and the connection stops reading the socket. A delta that
/// carries the whole reply so far (v3, or a v4 snapshot without `deltaText`) replaces the waiting one
/// of its run instead of queueing; appending deltas are never merged or dropped.
final class EventInbox: Sendable {
    /// Events handled per main-actor turn when more than this many are waiting (the main actor is far
    /// behind a burst). Fewer waiting are handled one per turn, so observers see every state.
    static let catchUpSlice = 64
    /// Events waiting at most (plus merged deltas, which take no room).
    static let highWater = 1024

    struct Stats: Sendable, Equatable {
        var pending = 0
        var peakPending = 0
        var coalesced = 0
        /// A post is waiting for room.
        var posterWaiting = false
    }

    private struct State {
        var events: [ChatStreamEvent] = []
        /// Index in `events` of the newest waiting cumulative delta per run.
        var cumulative: [String: Int] = [:]
        var roomWaiter: CheckedContinuation<Void, Never>?
        var stats = Stats()
    }

    private let state = Mutex(State())
    /// One element per batch to take; never more than one waiting.
    let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    init() {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    var stats: Stats { state.withLock { $0.stats } }

    /// Queues `event`, first waiting for room while ``highWater`` events are waiting (or until the
    /// calling task is cancelled).
    func post(_ event: ChatStreamEvent) async {
        await waitForRoom()
        let wasEmpty = state.withLock { state -> Bool in
            let wasEmpty = state.events.isEmpty
            switch Self.flow(of: event) {
            case .plain: break
            case .barrierAll: state.cumulative.removeAll()
            case .barrier(let key): state.cumulative.removeValue(forKey: key)
            case .cumulative(let key):
                if let index = state.cumulative[key] {
                    state.events[index] = event
                    state.stats.coalesced += 1
                    return false
                }
                state.cumulative[key] = state.events.count
            }
            state.events.append(event)
            state.stats.pending = state.events.count
            state.stats.peakPending = max(state.stats.peakPending, state.events.count)
            return wasEmpty
        }
        if wasEmpty { signal.yield() }
    }

    private func waitForRoom() async {
        guard state.withLock({ $0.events.count >= Self.highWater }) else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let full = state.withLock { state -> Bool in
                    guard state.events.count >= Self.highWater, !Task.isCancelled else { return false }
                    state.roomWaiter = continuation
                    state.stats.posterWaiting = true
                    return true
                }
                if !full { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer {
                    state.roomWaiter = nil
                    state.stats.posterWaiting = false
                }
                return state.roomWaiter
            }
            waiter?.resume()
        }
    }

    /// Everything posted since the last call, oldest first.
    func take() -> [ChatStreamEvent] {
        let (events, waiter) = state.withLock { state in
            defer {
                state.events = []
                state.cumulative.removeAll()
                state.stats.pending = 0
                state.stats.posterWaiting = false
                state.roomWaiter = nil
            }
            return (state.events, state.roomWaiter)
        }
        waiter?.resume()
        return events
    }

    /// No more events: the signals end once the last batch is signalled.
    func finish() { signal.finish() }

    private enum Flow: Equatable {
        case plain
        case cumulative(key: String)
        case barrier(key: String)
        case barrierAll
    }

    private static func flow(of event: ChatStreamEvent) -> Flow {
        switch event {
        case .chat(let chat):
            let key = "\(chat.sessionKey)|\(chat.runId)"
            let carriesWholeText = chat.state == .delta && chat.deltaText == nil && !chat.replace && chat.message != nil
            return carriesWholeText ? .cumulative(key: key) : .barrier(key: key)
        case .connected, .disconnected, .gap: return .barrierAll
        case .agent, .shutdown, .other, .ignored: return .plain
        }
    }
}
