import OpenClawAppModel
import Synchronization

/// A ``Sleep`` the test drives: every wait is recorded and suspends until ``advance()`` ends the
/// oldest one, or its task is cancelled (then it throws, as `Task.sleep` does). Schedules measured in
/// seconds run in no time, one step at a time.
final class ManualSleeper: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var requested: [Duration] = []
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    var sleep: Sleep { { [self] duration in try await self.wait(duration) } }

    /// Every duration asked for, in order.
    var requested: [Duration] { state.withLock { $0.requested } }

    /// Waits currently suspended.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Ends the oldest wait; false when none is suspended.
    @discardableResult
    func advance() -> Bool {
        let waiter = state.withLock { state in state.waiters.isEmpty ? nil : state.waiters.removeFirst() }
        waiter?.continuation.resume()
        return waiter != nil
    }

    private func wait(_ duration: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            state.requested.append(duration)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let alreadyCancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if alreadyCancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}
