/// Takes a client's updates to a main-actor screen model, in order, until stopped: the approvals and
/// questions models each follow their client this way.
///
/// A task of its own because the model outlives the call that starts it (the chat screen keeps it until it
/// switches gateways, which stops it). It holds the model weakly: a model that is gone ends the relay.
@MainActor
struct ClientUpdateRelay {
    private var task: Task<Void, Never>?

    /// Relays `updates` to `apply` on `model`, replacing a relay already running.
    mutating func relay<Model: AnyObject & Sendable, Update: Sendable>(
        _ updates: AsyncStream<Update>, to model: Model,
        _ apply: @escaping @MainActor (Model, Update) async -> Void
    ) {
        task?.cancel()
        // Unstructured, owned by this relay: replaced or stopped by its model, and ends with `updates`.
        task = Task { [weak model] in
            for await update in updates {
                guard let model else { return }
                await apply(model, update)
            }
        }
    }

    mutating func stop() {
        task?.cancel()
        task = nil
    }
}
