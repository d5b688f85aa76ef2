import Observation
import Synchronization

/// Suspends until something `read` touches changes, or `timeout` passes (so a caller re-checks
/// conditions Observation cannot see, such as a deadline), or the task is cancelled. Without a timeout
/// nothing wakes up until a change: an idle chat sleeps. The timer of a wait that ended first is
/// cancelled, so it does not wake the process for nothing later.
@MainActor
func waitForChange(timeout: Duration? = .milliseconds(250), _ read: @escaping @MainActor () -> Void) async {
    let gate = ResumeOnce()
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            gate.arm(continuation)
            withObservationTracking(read) { gate.resume() }
            if let timeout {
                gate.setTimer(
                    Task {
                        try? await Task.sleep(for: timeout)
                        gate.resume()
                    })
            }
        }
    } onCancel: {
        gate.resume()
    }
}

/// A continuation resumed by whichever comes first; the timer is cancelled then.
private final class ResumeOnce: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var timer: Task<Void, Never>?
        var resumed = false
    }

    private let state = Mutex(State())

    func arm(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state -> Bool in
            if state.resumed { return true }
            state.continuation = continuation
            return false
        }
        // Cancelled before the wait began.
        if resumeNow { continuation.resume() }
    }

    func setTimer(_ timer: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            if state.resumed { return true }
            state.timer = timer
            return false
        }
        if cancelNow { timer.cancel() }
    }

    func resume() {
        let (waiting, timer) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Task<Void, Never>?) in
            state.resumed = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        waiting?.resume()
    }
}
