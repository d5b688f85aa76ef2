import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals (SIGINT, SIGTERM …) as an async sequence.
///
/// A signal arrives on a dispatch queue that belongs to no actor, so its handler must not touch actor
/// state: Swift 6 checks isolation at run time and traps (the interactive chat crashed on Ctrl-C that
/// way). Here the handler only yields the signal number into an `AsyncStream`; whoever owns the state
/// consumes the stream on its own actor. Creating the sources is `nonisolated`, so no handler closure
/// can inherit an actor's isolation by being written inside one.
final class SignalEvents: Sendable {
    /// The signals received, in order; ends when ``cancel()`` is called.
    let stream: AsyncStream<Int32>
    private let sources: Mutex<[any DispatchSourceSignal]>
    private let continuation: AsyncStream<Int32>.Continuation

    /// Starts listening for `signals`; their default action (ending the process) is turned off until
    /// ``cancel()``.
    nonisolated init(_ signals: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(16))
        self.stream = stream
        self.continuation = continuation
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: Self.handler(yielding: signalNumber, to: continuation))
            source.resume()
            sources.append(source)
        }
        self.sources = Mutex(sources)
    }

    /// A handler that only hands the signal on: safe on any thread.
    private nonisolated static func handler(
        yielding signalNumber: Int32, to continuation: AsyncStream<Int32>.Continuation
    ) -> @Sendable () -> Void {
        { continuation.yield(signalNumber) }
    }

    /// Stops listening, restores the default actions and ends ``stream``.
    func cancel() {
        let stopped = sources.withLock { sources -> [any DispatchSourceSignal] in
            defer { sources = [] }
            return sources
        }
        for source in stopped {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
        continuation.finish()
    }

    deinit { cancel() }
}

/// Runs `body` and cancels it on SIGINT or SIGTERM, so servers and streams shut down cleanly.
func withSignalCancellation(_ body: @escaping @Sendable () async throws -> Void) async throws {
    let task = Task { try await body() }
    let signals = SignalEvents([SIGINT, SIGTERM])
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
