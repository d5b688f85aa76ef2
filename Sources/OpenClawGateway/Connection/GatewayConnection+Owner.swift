/// The lifetime of the connection's work: one owner task while there is work, none at rest.
extension GatewayConnection {
    /// Runs `job` as a child of the connection's owner, starting the owner when none runs.
    func start(_ job: @escaping ConnectionOwner.Job) {
        runningOwner().start(job)
    }

    /// Runs socket work (closes, pings) as a child of the owner, for a caller that must not wait for
    /// the network (the socket's reader, the clock).
    func start(_ work: SocketWork) {
        guard !work.isEmpty else { return }
        start { await work.run() }
    }

    /// Stops the owner once the connection is at rest (no socket, no attempt, no reconnect wait), and
    /// waits until all its children have ended.
    func stopOwnerAtRest() async {
        guard machine.isAtRest, live == nil else { return }
        // Let go at once, so that a `connect()` meanwhile starts a new owner rather than handing its work
        // to one that is stopping; a second `disconnect()` meanwhile waits for the same stop.
        if let owner {
            stoppingOwners.append(owner)
            self.owner = nil
            clock.removeAll()
        }
        let stopping = stoppingOwners
        for owner in stopping { await owner.stop() }
        stoppingOwners.removeAll { owner in stopping.contains { $0 === owner } }
    }

    /// The owner, started when none runs.
    func runningOwner() -> ConnectionOwner {
        if let owner { return owner }
        let clock = self.clock
        let pending = self.pending
        // The connection is held weakly: its owner must not keep a connection no one holds alive.
        let owner = ConnectionOwner { [weak self] in
            await clock.run { due in
                if due.requests { pending.expire(at: .now) }
                for timer in due.timers { await self?.timerFired(timer.name, timer.token) }
            }
        }
        self.owner = owner
        return owner
    }
}
