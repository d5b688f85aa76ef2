internal import CEnqueueHook
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Swift concurrency's global executor moved onto the network's event-loop threads.
///
/// By default a frame read by SwiftNIO on its event loop wakes a thread of the concurrency pool to
/// resume the task that waits for it, and what that task writes goes back to the event loop: thread
/// switches and kernel wake-ups on every round trip. With the event loops as the global executor, a
/// task resumed by a frame runs on the loop that read it, and its write needs no hop (measured: a
/// `health` round trip's client CPU 146 → 101 µs, context switches 8.8 → 3.2 per request).
///
/// A program opts in once, first thing in its `main`; a library never does it behind its host's back.
/// Only where the transport runs on NIO's POSIX loops (Linux): on Apple platforms it uses
/// Network.framework's, which this would not bring closer.
///
/// What runs on the global executor then shares the loops with the sockets, so nothing may block there
/// for long: the terminal client reads its input and waits for children on threads of its own.
///
/// The runtime's hook is found by the linker (`CEnqueueHook`), not looked up by name as SwiftNIO's own
/// installer does: a statically linked program does not export the runtime's symbols, so there the
/// lookup found nothing and the program silently stayed on Swift's pool.
public enum NetworkThreads {
    /// The runtime's hook: called for every job enqueued on the global executor, with the runtime's
    /// own enqueue (not used: every job goes to a loop).
    private typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
    private typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void

    /// Installs the event loops as the global executor; false where it does not apply or another hook
    /// was installed first. Call it once, from the main thread, before any task starts. It also starts
    /// SwiftNIO's shared group at once (on a thread of its own): set `NIOSingletons`' suggestions before.
    @discardableResult
    public static func runConcurrencyOnEventLoops() -> Bool {
        #if canImport(Network)
            return false
        #else
            guard MemoryLayout<EnqueueHook>.size == MemoryLayout<UnsafeRawPointer>.size,
                let slot = openclaw_enqueue_global_hook_slot()?.assumingMemoryBound(to: UnsafeRawPointer?.self),
                slot.pointee == nil
            else { return false }
            // The loop the job is enqueued from when it is one of the group's (a task resumed by a
            // frame stays on the loop that read it), any loop otherwise.
            let hook: EnqueueHook = { job, _ in
                MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(job))
            }
            slot.pointee = unsafeBitCast(hook, to: UnsafeRawPointer.self)
            startLoopsInBackground()
            return true
        #endif
    }

    /// Creates the loops on a thread of their own, so the caller goes on (a program parses its command
    /// line meanwhile) and the first job enqueued waits only for what is left of their start (the hook
    /// reaches the same lazily created group). Where no thread can be made, the first job creates them.
    private static func startLoopsInBackground() {
        #if canImport(Glibc)
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { _ in
                    _ = MultiThreadedEventLoopGroup.singleton
                    return nil
                }, nil)
            if created == 0 { pthread_detach(thread) }
        #endif
    }

    /// Whether the calling thread is one of the network's event loops: asked from a task that runs on
    /// the global executor, whether ``runConcurrencyOnEventLoops()`` took effect. (Only the global
    /// executor's jobs move: the main actor keeps the main thread, and a task resumed after a sleep
    /// runs on Swift's pool until its next hop.)
    public static var currentThreadIsEventLoop: Bool {
        #if canImport(Network)
            return false
        #else
            return MultiThreadedEventLoopGroup.currentEventLoop != nil
        #endif
    }
}
