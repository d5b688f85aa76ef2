import OpenClawChat
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals (SIGINT, SIGTERM …) as an async sequence.
///
/// A signal arrives in a context that belongs to no actor, so its handler must not touch actor state:
/// Swift 6 checks isolation at run time and traps (the interactive chat crashed on Ctrl-C that way).
/// Here the C handler only writes the signal's number to a pipe (`write` is async-signal-safe); a
/// thread of its own reads the pipe and yields the number into each listener's `AsyncStream`, which
/// its owner consumes on its own actor.
///
/// The handler is installed with `sigaction` before `init` returns. Dispatch signal sources, used
/// before, register asynchronously after the signal had been set to `SIG_IGN`: a SIGTERM sent right
/// after start-up (a service manager, a test) was ignored and the process never stopped.
final class SignalEvents: Sendable {
    /// The signals received, in order; ends when ``cancel()`` is called.
    let stream: AsyncStream<Int32>
    private let id: Int
    private let cancelled = Mutex(false)

    /// Starts listening for `signals`; their default action (ending the process) is replaced until
    /// ``cancel()``. At most `keeping` signals wait to be read (the newest).
    nonisolated init(_ signals: [Int32], keeping: Int = 16) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Int32.self, bufferingPolicy: .bufferingNewest(keeping))
        self.stream = stream
        id = SignalRelay.shared.add(signals: signals, continuation: continuation)
    }

    /// Stops listening, restores the actions there were before (unless another listener still wants
    /// the signals) and ends ``stream``.
    func cancel() {
        let first = cancelled.withLock { done in
            defer { done = true }
            return !done
        }
        if first { SignalRelay.shared.remove(id: id) }
    }

    deinit { cancel() }
}

/// The process-wide half: the pipe, the C handler, the reading thread and the listeners.
private final class SignalRelay: Sendable {
    static let shared = SignalRelay()

    private struct Listener {
        var signals: Set<Int32>
        var continuation: AsyncStream<Int32>.Continuation
    }

    private struct State {
        var nextID = 0
        var listeners: [Int: Listener] = [:]
        /// The actions our handler replaced, put back when nobody listens any more (an inherited
        /// `SIG_IGN`, for example, stays ignored).
        var replaced: [Int32: sigaction] = [:]
    }

    private let state = Mutex(State())
    /// False when the pipe could not be made: then no handler is installed and the signals keep their
    /// default actions (ending the process), rather than being swallowed.
    private let isWorking: Bool

    private init() {
        var fds: [Int32] = [-1, -1]
        isWorking = pipe(&fds) == 0
        guard isWorking else { return }
        for descriptor in fds { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // A full pipe must never block the handler: a signal that finds it full is dropped, and the
        // listener has more than a pipe's worth of the same signals waiting already.
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        signalRelayWriteFD = fds[1]
        DetachedThread.start(name: "openclaw-signals") { [self, readEnd = fds[0]] in readLoop(readEnd) }
    }

    func add(signals: [Int32], continuation: AsyncStream<Int32>.Continuation) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = Listener(signals: Set(signals), continuation: continuation)
            guard isWorking else { return id }
            for number in signals where state.replaced[number] == nil {
                state.replaced[number] = Self.install(number, handler: signalRelayHandler)
            }
            return id
        }
    }

    func remove(id: Int) {
        let removed = state.withLock { state -> Listener? in
            guard let listener = state.listeners.removeValue(forKey: id) else { return nil }
            let stillWanted = state.listeners.values.reduce(into: Set<Int32>()) { $0.formUnion($1.signals) }
            for number in listener.signals where !stillWanted.contains(number) {
                if var previous = state.replaced.removeValue(forKey: number) { sigaction(number, &previous, nil) }
            }
            return listener
        }
        removed?.continuation.finish()
    }

    private func readLoop(_ fd: Int32) {
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count == 1 {
                deliver(Int32(byte))
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    private func deliver(_ number: Int32) {
        let targets = state.withLock { state in
            state.listeners.values.filter { $0.signals.contains(number) }.map(\.continuation)
        }
        for continuation in targets { continuation.yield(number) }
    }

    /// Installs `handler` for `number` and returns the action it replaced.
    private static func install(_ number: Int32, handler: (@convention(c) (Int32) -> Void)?) -> sigaction {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
        #elseif canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var previous = sigaction()
        sigaction(number, &action, &previous)
        return previous
    }
}

/// The pipe's write end, set once before any handler is installed; read by the handler, which can use
/// nothing else (no locks, no allocation).
nonisolated(unsafe) private var signalRelayWriteFD: Int32 = -1

/// The C signal handler: one byte, the signal's number, into the pipe.
private let signalRelayHandler: @convention(c) (Int32) -> Void = { number in
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalRelayWriteFD, &byte, 1)
    errno = savedErrno
}

/// Runs `body` and cancels it on SIGINT or SIGTERM, so servers and streams shut down cleanly.
/// `signals` lets the caller start listening earlier (before it announces itself), so a signal sent
/// the moment it is announced is not missed.
func withSignalCancellation(
    listeningWith signals: SignalEvents = SignalEvents([SIGINT, SIGTERM]),
    _ body: @escaping @Sendable () async throws -> Void
) async throws {
    // Unstructured: the watcher cancels `task` alone; `task` is awaited below, the watcher cancelled with it.
    let task = Task { try await body() }
    let watcher = Task {
        for await _ in signals.stream {
            task.cancel()
            return
        }
    }
    defer {
        watcher.cancel()
        signals.cancel()
    }
    do {
        try await task.value
    } catch is CancellationError {
        return
    }
}
