import OpenClawGateway

/// A follower that catches up after each connect: it lists what the gateway has pending and reconciles
/// its queue with that list, for what came while it was not connected (a phone back from the background,
/// a terminal started late, a dropped socket). The approvals and questions clients differ only in what
/// they list and how their queue takes it.
protocol PendingCatchUp: ConnectionFollower {
    /// One pending item as the gateway lists it.
    associatedtype Listed: Sendable

    /// The job a catch-up runs as: a new connect's replaces the last one's.
    static var catchUpJob: Job { get }

    /// What the gateway has pending; nil when it gives no list (nothing to catch up on).
    static func listPending(on connection: GatewayConnection) async -> [Listed]?

    /// Reconciles the queue with `listed`, asked for at `since`, and returns the updates that makes.
    func reconcileQueue(with listed: [Listed], since: ContinuousClock.Instant) -> [Update]
}

extension PendingCatchUp {
    /// Lists what is pending on the connection of `generation` and reconciles the queue with it.
    func catchUp(generation: Int) {
        let since = ContinuousClock.now
        lifetime.replace(Self.catchUpJob) { [weak self, connection] in
            guard let listed = await Self.listPending(on: connection) else { return }
            await self?.reconcile(listed, since: since, generation: generation)
        }
    }

    private func reconcile(_ listed: [Listed], since: ContinuousClock.Instant, generation: Int) async {
        // A list from a socket that is gone says nothing about the current one.
        guard await connection.session?.generation == generation else { return }
        for update in reconcileQueue(with: listed, since: since) { publish(update) }
        armDeadline()
    }
}
