/// Everything a client following one connection keeps running, ended together by ``end()``: the loop
/// over the connection's events, the one deadline timer, the jobs a connect starts (a catch-up list, a
/// check of decisions in doubt, a session subscription), and the subscribers to its updates.
///
/// These are tasks of their own, not children of a caller's task, because the client outlives the call
/// that starts it: `start()` returns to a screen that keeps the client and stops it later. An owner with
/// a task of its own uses the client's `run()` instead, and cancelling that task ends all of them.
struct FollowerLifetime<Update: Sendable, Job: Hashable & Sendable> {
    var subscribers = UpdateSubscribers<Update>()
    private var loop: Task<Void, Never>?
    private var deadline: Task<Void, Never>?
    private var jobs: [Job: Task<Void, Never>] = [:]

    /// The event loop, while the client follows its connection.
    var following: Task<Void, Never>? { loop }

    /// Takes `loop` as the client's event loop, once; a second start keeps the first.
    mutating func follow(_ loop: Task<Void, Never>) {
        guard self.loop == nil else {
            loop.cancel()
            return
        }
        self.loop = loop
    }

    /// One timer, for the earliest deadline: a new arming replaces the last, and nil disarms it.
    mutating func armDeadline(
        _ next: ContinuousClock.Instant?, fire: @escaping @Sendable () async -> Void
    ) {
        deadline?.cancel()
        guard let next else {
            deadline = nil
            return
        }
        // Unstructured, one at a time: replaced by the next arming and cancelled with the follower.
        deadline = Task {
            try? await Task.sleep(until: next, clock: .continuous)
            guard !Task.isCancelled else { return }
            await fire()
        }
    }

    /// Starts `job` as `work`, replacing (cancelling) the one still running under that name.
    mutating func replace(_ job: Job, with work: @escaping @Sendable () async -> Void) {
        jobs[job]?.cancel()
        jobs[job] = Task { await work() }
    }

    func isRunning(_ job: Job) -> Bool { jobs[job] != nil }

    /// Forgets `job` without cancelling it: it has ended, or reports its end itself.
    mutating func finished(_ job: Job) { jobs[job] = nil }

    mutating func cancel(_ job: Job) {
        jobs.removeValue(forKey: job)?.cancel()
    }

    /// Ends the loop, the timer and every job, and every subscription to the updates.
    mutating func end() {
        loop?.cancel()
        loop = nil
        deadline?.cancel()
        deadline = nil
        for task in jobs.values { task.cancel() }
        jobs.removeAll()
        subscribers.finishAll()
    }
}
