import Observation
import OpenClawChat
import Synchronization

/// Suspends until one of `kinds` changes in `chat`, or something `read` touches changes (an
/// `@Observable` of the terminal's own, such as ``ReplyQueue``), or `timeout` passes (so a caller
/// re-checks conditions neither can see, such as a deadline), or the task is cancelled. Without a
/// timeout nothing wakes up until a change: an idle chat sleeps. Whatever did not end the wait is
/// cancelled, so it does not wake the process for nothing later.
///
/// Both are subscribed to before the first suspension: a change between the caller's last look and
/// the wait is not missed.
@MainActor
func waitForChange(
    timeout: Duration? = .milliseconds(250),
    of chat: ChatSession? = nil,
    _ kinds: ChatChanges = [],
    observing read: (@MainActor () -> Void)? = nil
) async {
    let gate = ResumeOnce()
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            gate.arm(continuation)
            if let read { withObservationTracking(read) { gate.resume() } }
            if let chat, !kinds.isEmpty {
                let changes = chat.changes(of: kinds)
                // Unstructured watchers, inside a continuation; cancelled by the first to resume the wait.
                gate.cancelOnResume(
                    Task {
                        var iterator = changes.makeAsyncIterator()
                        _ = await iterator.next()
                        gate.resume()
                    })
            }
            if let timeout {
                gate.cancelOnResume(
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

/// A continuation resumed by whichever comes first; the other watchers are cancelled then.
private final class ResumeOnce: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var watchers: [Task<Void, Never>] = []
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

    func cancelOnResume(_ watcher: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            if state.resumed { return true }
            state.watchers.append(watcher)
            return false
        }
        if cancelNow { watcher.cancel() }
    }

    func resume() {
        let (waiting, watchers) = state.withLock { state -> (CheckedContinuation<Void, Never>?, [Task<Void, Never>]) in
            state.resumed = true
            defer {
                state.continuation = nil
                state.watchers = []
            }
            return (state.continuation, state.watchers)
        }
        for watcher in watchers { watcher.cancel() }
        waiting?.resume()
    }
}
