import Synchronization

/// The changes of a ``ChatSession`` from the moment ``ChatSession/changes(of:)`` was called: each
/// element is every kind that changed since the previous one was taken (never empty).
///
/// Ends when the session is gone. A consumer that reads slowly gets fewer, larger sets, never a backlog.
public struct ChatChangeStream: AsyncSequence, Sendable {
    public typealias Element = ChatChanges

    let wakeUps: AsyncStream<Void>
    let wake: AsyncStream<Void>.Continuation
    let pending: PendingChatChanges

    public struct AsyncIterator: AsyncIteratorProtocol {
        var wakeUps: AsyncStream<Void>.Iterator
        let wake: AsyncStream<Void>.Continuation
        let pending: PendingChatChanges

        public mutating func next() async -> ChatChanges? {
            while await wakeUps.next() != nil {
                let changes = pending.take()
                if !changes.isEmpty { return changes }
            }
            return nil
        }

        /// Like ``next()``, but returns an empty set when `timeout` passes first: for a consumer that
        /// also has a deadline of its own (a reply's time bound, a spinner's next frame). May return
        /// early and empty after an earlier timeout that raced a change; look again and wait again.
        public mutating func next(timeout: Duration) async -> ChatChanges? {
            // Unstructured: it must wake the wait below from outside it; cancelled when this returns.
            let timer = Task { [wake] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { wake.yield() }
            }
            defer { timer.cancel() }
            guard await wakeUps.next() != nil else { return nil }
            return pending.take()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(wakeUps: wakeUps.makeAsyncIterator(), wake: wake, pending: pending)
    }
}

/// The kinds one subscriber has not taken yet, shared between the session (which adds) and the
/// subscriber's iterator (which takes).
final class PendingChatChanges: Sendable {
    private let changes = Mutex(ChatChanges())

    /// Adds `kinds`; true when nothing was pending, so the subscriber needs a wake-up (one wake-up per
    /// batch: the iterator takes everything added until it runs).
    func add(_ kinds: ChatChanges) -> Bool {
        changes.withLock { pending in
            let wasEmpty = pending.isEmpty
            pending.formUnion(kinds)
            return wasEmpty
        }
    }

    func take() -> ChatChanges {
        changes.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
