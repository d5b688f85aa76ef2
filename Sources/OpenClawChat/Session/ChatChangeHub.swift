import Synchronization

/// Hands a ``ChatSession``'s changes to its subscribers: the async streams of the terminal and the
/// one-shot commands, and the synchronous observers of an adapter such as ``ChatViewModel``, which must
/// invalidate its views in the same turn as the change.
final class ChatChangeHub: Sendable {
    private struct Subscriber {
        let interest: ChatChanges
        let pending: PendingChatChanges
        let continuation: AsyncStream<Void>.Continuation
    }

    private let subscribers = Mutex<[Int: Subscriber]>([:])
    private let nextID = Atomic<Int>(0)

    /// A new stream of the kinds in `interest`, from now on.
    func subscribe(to interest: ChatChanges) -> ChatChangeStream {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        // One buffered wake-up is enough: it stands for everything pending until the iterator takes it.
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pending = PendingChatChanges()
        subscribers.withLock { $0[id] = Subscriber(interest: interest, pending: pending, continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return ChatChangeStream(wakeUps: wakeUps, wake: continuation, pending: pending)
    }

    func publish(_ kinds: ChatChanges) {
        subscribers.withLock { subscribers in
            for subscriber in subscribers.values {
                let wanted = kinds.intersection(subscriber.interest)
                if !wanted.isEmpty, subscriber.pending.add(wanted) { subscriber.continuation.yield() }
            }
        }
    }

    /// Ends every stream: the session is gone.
    func finish() {
        let ended = subscribers.withLock { subscribers in
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for subscriber in ended { subscriber.continuation.finish() }
    }
}
