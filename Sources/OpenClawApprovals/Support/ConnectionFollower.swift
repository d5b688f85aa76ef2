import OpenClawGateway

/// A client that follows one connection's events and reports its changes as updates: the approvals and
/// questions clients. How such a client starts, runs, stops and is subscribed to is the same for both;
/// what an event or a connect means is each one's own.
protocol ConnectionFollower: Actor {
    associatedtype Update: Sendable
    associatedtype Job: Hashable & Sendable

    nonisolated var connection: GatewayConnection { get }
    var lifetime: FollowerLifetime<Update, Job> { get set }
    /// The current state as updates, for a new subscriber.
    var currentUpdates: [Update] { get }
    /// The earliest deadline among what is pending, if any.
    var nextDeadline: ContinuousClock.Instant? { get }

    func handle(_ event: GatewayEvent)
    func sessionStarted(_ session: GatewaySession)
    /// Closes what is past its deadline.
    func expireDue()
}

extension ConnectionFollower {
    /// Starts following the connection's events (idempotent). A connection already up is taken as it is.
    func startFollowing() async {
        guard lifetime.following == nil else { return }
        let events = connection.events()
        // Unstructured: the follower outlives `startFollowing()`; `lifetime` keeps the task and `stopFollowing()`
        // cancels it.
        lifetime.follow(
            Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.handle(event)
                }
            })
        if let session = await connection.session { sessionStarted(session) }
    }

    /// Follows the connection until the calling task is cancelled or the connection's events end, then
    /// stops; false when a `stop()` and a new start came meanwhile (the new loop is left running).
    @discardableResult
    func runFollowing() async -> Bool {
        await startFollowing()
        guard let loop = lifetime.following else { return true }
        await loop.endsWithCaller()
        // Not a loop started after a `stop()` meanwhile: that one is its starter's.
        guard lifetime.following == loop else { return false }
        lifetime.end()
        return true
    }

    /// Every change from now on, starting with the current state.
    func subscribeToUpdates() -> AsyncStream<Update> {
        lifetime.subscribers.subscribe(initial: currentUpdates) { [weak self] id in
            // Called synchronously when the subscriber stops reading; the removal belongs to the actor.
            Task { await self?.removeSubscriber(id) }
        }
    }

    private func removeSubscriber(_ id: Int) { lifetime.subscribers.remove(id) }

    func publish(_ update: Update) { lifetime.subscribers.publish(update) }

    /// Sets the one deadline timer to the earliest deadline; called after every change of the queue.
    func armDeadline() {
        lifetime.armDeadline(nextDeadline) { [weak self] in await self?.expireDue() }
    }
}
