import Synchronization

/// Runs `operation` with a deadline and returns its result, or nil when the deadline passed first.
///
/// Unlike a task group this does not wait for an operation that ignores cancellation (a NIO connect
/// future does): the caller moves on at the deadline, and a success that arrives later is handed to
/// `onLateSuccess` so that, for example, a late socket gets closed instead of leaking.
package func firstOf<Value: Sendable, Failure: Error>(
    timeout: Duration,
    operation: @escaping @Sendable () async -> Result<Value, Failure>,
    onLateSuccess: @escaping @Sendable (Value) async -> Void
) async -> Result<Value, Failure>? {
    let gate = OnceGate<Result<Value, Failure>?>()
    return await withCheckedContinuation { continuation in
        gate.arm(continuation)
        // Both unstructured on purpose: the caller must not wait for an operation that ignores
        // cancellation (see above); the loser ends by itself (the sleep, or the operation's own end).
        let work = Task {
            let result = await operation()
            if !gate.resume(returning: result), case .success(let value) = result {
                await onLateSuccess(value)
            }
        }
        Task {
            try? await Task.sleep(for: timeout)
            if gate.resume(returning: nil) { work.cancel() }
        }
    }
}

/// A continuation that the first of several racers resumes; the others learn they lost.
private final class OnceGate<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func arm(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// True when this call resumed the continuation, false when another racer already had.
    func resume(returning value: Value) -> Bool {
        let waiting = continuation.withLock { stored -> CheckedContinuation<Value, Never>? in
            defer { stored = nil }
            return stored
        }
        waiting?.resume(returning: value)
        return waiting != nil
    }
}
