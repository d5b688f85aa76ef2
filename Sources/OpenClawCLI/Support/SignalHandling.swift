import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body` and cancels it on SIGINT or SIGTERM, so servers and streams shut down cleanly.
func withSignalCancellation(_ body: @escaping @Sendable () async throws -> Void) async throws {
    let task = Task { try await body() }
    let sources = [SIGINT, SIGTERM].map { signalNumber -> any DispatchSourceSignal in
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        return source
    }
    defer { sources.forEach { $0.cancel() } }
    do {
        try await task.value
    } catch is CancellationError {
        return
    }
}
