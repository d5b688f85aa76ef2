import Synchronization

/// A flag that exactly one caller claims, whatever thread each runs on.
///
/// For callbacks that race to finish one thing, where only the first may (resuming a continuation twice
/// traps): the app's Bonjour resolver ends on a connection's state handler or on its timeout, both on
/// Network's queue and `@Sendable`, so a shared `var` between them is a data race Swift 6 rejects.
public final class OneShot: Sendable {
    private let claimed = Mutex(false)

    public init() {}

    /// True for the first caller, false for every later one.
    public func claim() -> Bool {
        claimed.withLock { claimed in
            guard !claimed else { return false }
            claimed = true
            return true
        }
    }

    /// Whether a caller has claimed it.
    public var isClaimed: Bool {
        claimed.withLock { $0 }
    }
}
