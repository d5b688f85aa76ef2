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
    // Unstructured on purpose: the caller must not wait for an operation that ignores cancellation
    // (see above); it is cancelled when the caller moves on, and its late success is handed over.
    let work = Task {
        let result = await operation()
        if !gate.offer(result), case .success(let value) = result {
            await onLateSuccess(value)
        }
    }
    return await withTaskGroup(of: Void.self) { group in
        group.addTask {
            try? await Task.sleep(for: timeout)
            if gate.offer(nil) { work.cancel() }
        }
        let outcome = await withTaskCancellationHandler {
            await gate.value()
        } onCancel: {
            if gate.offer(nil) { work.cancel() }
        }
        group.cancelAll()
        return outcome
    }
}

/// A value that the first of several racers offers; the others learn they lost.
private final class OnceGate<Value: Sendable>: Sendable {
    private enum State {
        case open
        case waiting(CheckedContinuation<Value, Never>)
        case decided(Value)
    }

    private let state = Mutex(State.open)

    /// True when `value` is the first offered (and so the one `value()` returns).
    func offer(_ value: Value) -> Bool {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            switch state {
            case .open:
                state = .decided(value)
                return (true, nil)
            case .waiting(let continuation):
                state = .decided(value)
                return (true, continuation)
            case .decided:
                return (false, nil)
            }
        }
        waiting?.resume(returning: value)
        return first
    }

    /// The first value offered, once there is one.
    func value() async -> Value {
        await withCheckedContinuation { continuation in
            let decided = state.withLock { state -> Value? in
                if case .decided(let value) = state { return value }
                state = .waiting(continuation)
                return nil
            }
            if let decided { continuation.resume(returning: decided) }
        }
    }
}
