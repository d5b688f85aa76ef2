/// Polls `condition` until it holds or `timeout` passes; the last answer decides. Runs on the caller's
/// actor, so main-actor tests can read view-model state in the condition. The bound is generous (a
/// safety net, not a measure: a condition that holds returns at once): the whole suite runs in parallel
/// on two cores, where a step that takes 50 ms alone has been seen to take several seconds.
public func eventually(
    timeout: Duration = .seconds(15),
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
