import Synchronization

/// How many of the interactive chat's children (its relays, watchers and worker) are running: a test
/// hook, read when the chat's `run()` has returned, where any count above zero is a child outliving
/// the chat.
final class ChildCensus: Sendable {
    private let count = Mutex(0)

    var running: Int { count.withLock { $0 } }

    /// `work`, counted while it runs.
    func counted(_ work: @escaping @Sendable () async -> Void) -> @Sendable () async -> Void {
        { [self] in
            count.withLock { $0 += 1 }
            defer { count.withLock { $0 -= 1 } }
            await work()
        }
    }
}
