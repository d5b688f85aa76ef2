import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM as an `AsyncStream`, for long-running commands (`node`) that must stop cleanly.
///
/// The dispatch sources only yield into the stream; whoever consumes it does the stopping in its own
/// isolation, so no actor state is ever touched from a signal context. Create it first thing, before
/// anything that could be interrupted, so an early Ctrl-C is not lost to the default handler.
final class SignalStream {
    let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]
    private let continuation: AsyncStream<Int32>.Continuation

    init(_ numbers: [Int32] = [SIGINT, SIGTERM]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(4))
        signals = stream
        self.continuation = continuation
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Stops listening; the stream ends.
    func cancel() {
        sources.forEach { $0.cancel() }
        continuation.finish()
    }
}
