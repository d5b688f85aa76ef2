import Synchronization

/// Runs `operation` with a deadline and returns its result, or nil when the deadline passed first or
/// the calling task was cancelled.
///
/// Unlike a task group this does not wait for an operation that ignores cancellation (a NIO connect
/// future does): the caller moves on at the deadline or at its cancellation, and a success that
/// arrives later is handed to `onLateSuccess` so that, for example, a late socket gets closed instead
/// of leaking.
package func firstOf<Value: Sendable, Failure: Error>(
    timeout: Duration,
    operation: @escaping @Sendable () async -> Result<Value, Failure>,
    onLateSuccess: @escaping @Sendable (Value) async -> Void
) async -> Result<Value, Failure>? {
    let gate = OnceGate<Result<Value, Failure>?>()
    let racers = Racers()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            gate.arm(continuation)
            // Both unstructured on purpose: the caller must not wait for an operation that ignores
            // cancellation (see above); both are cancelled when the caller moves on, and the operation's
            // late success is handed over.
            let work = Task {
                let result = await operation()
                if !gate.resume(returning: result), case .success(let value) = result {
                    await onLateSuccess(value)
                }
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if gate.resume(returning: nil) { work.cancel() }
            }
            racers.add([work, timer])
            // Cancelled before the racers were there to cancel.
            if Task.isCancelled, gate.resume(returning: nil) { racers.cancel() }
        }
    } onCancel: {
        if gate.resume(returning: nil) { racers.cancel() }
    }
}

/// The racers of one `firstOf`, for its cancellation to stop them.
private final class Racers: Sendable {
    private let tasks = Mutex<[Task<Void, Never>]>([])

    func add(_ racers: [Task<Void, Never>]) { tasks.withLock { $0 += racers } }

    func cancel() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
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
