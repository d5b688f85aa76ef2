import Observation
import Synchronization

/// Suspends until something `read` touches changes, or `timeout` passes (so a caller re-checks
/// conditions Observation cannot see, such as a deadline).
@MainActor
func waitForChange(timeout: Duration = .milliseconds(250), _ read: @escaping @MainActor () -> Void) async {
    let gate = ResumeOnce()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        gate.arm(continuation)
        withObservationTracking(read) { gate.resume() }
        Task {
            try? await Task.sleep(for: timeout)
            gate.resume()
        }
    }
}

/// A continuation resumed by whichever comes first.
private final class ResumeOnce: Sendable {
    private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)

    func arm(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume() {
        let waiting = continuation.withLock { stored -> CheckedContinuation<Void, Never>? in
            defer { stored = nil }
            return stored
        }
        waiting?.resume()
    }
}
