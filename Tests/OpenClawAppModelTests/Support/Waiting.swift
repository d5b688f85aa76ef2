import Observation
@_exported import OpenClawTestSupport

/// Waits until `condition` holds, re-checking whenever an observable property it reads changes (and
/// every 250 ms, for state Observation cannot see). Generous default: the machine running the tests
/// may be busy with other builds.
@MainActor
func waitUntil(timeout: Duration = .seconds(15), _ condition: @escaping @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        await nextChange(of: condition)
    }
    return true
}

@MainActor
private func nextChange(of condition: @escaping @MainActor () -> Bool) async {
    let (signal, continuation) = AsyncStream.makeStream(of: Void.self)
    withObservationTracking {
        _ = condition()
    } onChange: {
        continuation.yield()
    }
    let timer = Task {
        try? await Task.sleep(for: .milliseconds(250))
        continuation.yield()
    }
    var iterator = signal.makeAsyncIterator()
    _ = await iterator.next()
    timer.cancel()
}

/// The app-model tests' polling default: 15 s, every 25 ms.
@MainActor
func eventually(timeout: Duration = .seconds(15), _ condition: () async -> Bool) async -> Bool {
    await OpenClawTestSupport.eventually(timeout: timeout, every: .milliseconds(25), condition)
}
