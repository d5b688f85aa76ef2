/// The one task that owns a connection's long-lived work while it has any: its children are the
/// clock, the socket readers, the opening of sockets and the work on them (closes, pings), handed
/// over as jobs. Stopping it cancels them all and waits for their end, so nothing of the connection
/// runs on afterwards.
final class ConnectionOwner: Sendable {
    typealias Job = @Sendable () async -> Void

    private let jobs: AsyncStream<Job>.Continuation
    private let task: Task<Void, Never>

    /// Starts the owner with `clock` as its first child.
    init(clock: @escaping Job) {
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        // Unstructured, the only such task of a connection: the connection outlives the caller of
        // `connect()`, so its work cannot be a child of that caller. It is kept by the actor and
        // cancelled and awaited when the connection comes to rest (`disconnect()`) or is released.
        task = Task {
            await withDiscardingTaskGroup { group in
                group.addTask(operation: clock)
                for await job in stream { group.addTask(operation: job) }
                // Cancelled (the stream ends with its task) or stopped: the children end with it.
                group.cancelAll()
            }
        }
    }

    /// Runs `job` as a child; dropped when the owner is stopping.
    func start(_ job: @escaping Job) { jobs.yield(job) }

    /// Cancels every child, and returns once all have ended.
    func stop() async {
        cancel()
        await task.value
    }

    /// Cancels every child without waiting (the connection is being released).
    func cancel() {
        jobs.finish()
        task.cancel()
    }
}
