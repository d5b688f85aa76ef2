#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Work that blocks (opening SQLite, copying a file, reading a pipe to its end) moved to a thread of its
/// own, awaited without blocking the caller's.
///
/// `openclaw-chat` runs Swift concurrency on the network's event loops (`NetworkThreads`): a blocking call
/// made from a task there stalls every socket of that loop for as long as it takes. A thread per call is
/// cheap next to what these calls do, and is used only where the work is rare and slow.
package enum BlockingWork {
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            onNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            onNewThread { continuation.resume(returning: body()) }
        }
    }

    /// When no thread can be made (the process is at its limit), `work` runs on the caller's: late rather
    /// than never.
    private static func onNewThread(_ work: @escaping @Sendable () -> Void) {
        if !DetachedThread.start(work) { work() }
    }
}
