import Synchronization

/// The connection's one clock: the machine's timers and the requests' timeouts wait here, and
/// `run(fire:)`, a child of the connection's owner task, sleeps until the earliest of them.
///
/// Arming (from the actor, or from a caller registering a request) needs no task: it writes the
/// deadline under a lock, and wakes the sleeping clock only when the new deadline comes first
/// (requests sent one after another with the same timeout never wake it).
final class ConnectionClock: Sendable {
    private struct State {
        var deadlines = Deadlines()
        /// The running clock, asleep until a deadline or a wake-up.
        var sleeper: CheckedContinuation<Void, Never>?
        /// A wake-up that came while the clock was not asleep: its next sleep ends at once.
        var woken = false
        /// How often arming asked the clock to wake: for tests that count them.
        var wakeUps = 0
    }

    private let state = Mutex(State())

    /// Arms timer `name` to fire with `token` after `delay`, replacing any other of that name.
    func arm(_ name: TimerName, token: TimerToken, after delay: Duration) {
        let deadline = ContinuousClock.now + delay
        wakeIf { $0.deadlines.arm(name, token: token, at: deadline) }
    }

    func cancel(_ name: TimerName) { state.withLock { $0.deadlines.cancel(name) } }

    /// The token timer `name` is armed with; nil when it is not armed.
    func token(of name: TimerName) -> TimerToken? { state.withLock { $0.deadlines.token(of: name) } }

    /// Makes the clock hand the requests over by `deadline` (see `run(fire:)`).
    func wakeForRequests(by deadline: ContinuousClock.Instant) {
        wakeIf { $0.deadlines.wakeForRequests(by: deadline) }
    }

    /// When the clock looks at the requests next; nil when it was not asked to.
    var requestsDeadline: ContinuousClock.Instant? { state.withLock { $0.deadlines.requests } }

    /// Disarms everything: the connection's work ended, and no timer armed before fires later.
    func removeAll() { state.withLock { $0.deadlines.removeAll() } }

    /// The first deadline to come; nil when nothing is armed.
    var earliest: ContinuousClock.Instant? { state.withLock { $0.deadlines.earliest } }

    /// How many times arming asked the clock to wake (for a deadline before all others) since it was
    /// made: each costs the clock a turn of its loop.
    var wakeUps: Int { state.withLock { $0.wakeUps } }

    /// Hands what comes due to `fire`, one look at a time, until cancelled.
    func run(fire: (Deadlines.Due) async -> Void) async {
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let (due, next) = state.withLock { state in
                (state.deadlines.takeDue(at: now), state.deadlines.earliest)
            }
            if !due.isEmpty {
                await fire(due)
                continue
            }
            await sleep(until: next)
        }
    }

    /// Returns at `deadline` (never, when nil), at a wake-up, or when cancelled.
    private func sleep(until deadline: ContinuousClock.Instant?) async {
        await withTaskGroup(of: Void.self) { group in
            if let deadline {
                group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            }
            group.addTask { await self.waitForWakeUp() }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForWakeUp() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.woken || Task.isCancelled {
                        state.woken = false
                        return true
                    }
                    state.sleeper = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                defer { state.sleeper = nil }
                return state.sleeper
            }
            sleeper?.resume()
        }
    }

    private func wakeIf(_ change: (inout State) -> Bool) {
        let sleeper = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard change(&state) else { return nil }
            state.wakeUps += 1
            guard let sleeper = state.sleeper else {
                state.woken = true
                return nil
            }
            state.sleeper = nil
            return sleeper
        }
        sleeper?.resume()
    }
}
