#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
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

    /// Runs `work` on a detached POSIX thread (Foundation's `Thread` is corelibs-only). When no thread can
    /// be made (the process is at its limit), it runs on the caller's: late rather than never.
    private static func onNewThread(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let started = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<WorkBox>.fromOpaque(argument).takeRetainedValue().work()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<WorkBox>.fromOpaque(box).takeRetainedValue().work()
            return
        }
        #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
        #else
            pthread_detach(thread)
        #endif
    }

    private final class WorkBox: Sendable {
        let work: @Sendable () -> Void
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }
}
