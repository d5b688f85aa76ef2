/// The subscribers of an actor's updates (the approvals and questions clients): each gets every update
/// from its subscription on, in order, until it stops reading or the actor stops.
struct UpdateSubscribers<Update: Sendable> {
    private var continuations: [Int: AsyncStream<Update>.Continuation] = [:]
    private var nextID = 0

    /// A new subscription that first receives `initial` (the current state, as updates). `unsubscribe`
    /// is called with its id when the subscriber stops reading; the owner then calls ``remove(_:)``.
    mutating func subscribe(
        initial: [Update], unsubscribe: @escaping @Sendable (Int) -> Void
    ) -> AsyncStream<Update> {
        let (stream, continuation) = AsyncStream.makeStream(of: Update.self)
        let id = nextID
        nextID += 1
        continuations[id] = continuation
        continuation.onTermination = { _ in unsubscribe(id) }
        for update in initial { continuation.yield(update) }
        return stream
    }

    mutating func remove(_ id: Int) { continuations.removeValue(forKey: id) }

    func publish(_ update: Update) {
        for continuation in continuations.values { continuation.yield(update) }
    }

    /// Ends every subscription.
    mutating func finishAll() {
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
    }
}
