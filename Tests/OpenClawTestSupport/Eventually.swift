/// Polls `condition` until it holds or `timeout` passes; the last answer decides. Runs on the caller's
/// actor, so main-actor tests can read view-model state in the condition. Intervals are generous: the
/// machine running the tests may be busy with other builds.
public func eventually(
    timeout: Duration = .seconds(5),
    every interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return await condition()
}
