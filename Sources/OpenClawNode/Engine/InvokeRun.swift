import OpenClawProtocol

/// One invoke's run: the command, its deadline and the gateway's `node.invoke.cancel`, raced so that the
/// first to end is the answer at once and the others are cancelled (a process is killed with its process
/// group when the command is cancelled).
struct InvokeRun: Sendable {
    let perform: @Sendable () async -> Result<JSONValue, NodeInvokeError>
    let timeoutMs: Int?
    /// Ends the run with `CANCELLED` when it yields; finishing it without a value ends nothing.
    let cancellation: AsyncStream<Void>

    /// The first outcome; nil when the task running it was cancelled from outside (the host stopped).
    func outcome() async -> Result<JSONValue, NodeInvokeError>? {
        // The command runs in a task of its own, cancelled when the race ends: a command may not notice
        // cancellation (a process that left its group keeps the output open after the group is killed),
        // and neither the answer, nor the node's concurrency slot, nor the host's end may wait for it.
        let (results, deliver) = AsyncStream.makeStream(of: Result<JSONValue, NodeInvokeError>.self)
        let command = Task {
            deliver.yield(await perform())
            deliver.finish()
        }
        defer { command.cancel() }
        return await withTaskGroup(of: Result<JSONValue, NodeInvokeError>?.self) { group in
            group.addTask {
                for await result in results { return result }
                return nil
            }
            if let timeoutMs {
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(timeoutMs))
                    return Task.isCancelled ? nil : .failure(.timedOut(afterMs: timeoutMs))
                }
            }
            group.addTask {
                for await _ in cancellation { return .failure(.cancelled) }
                return nil
            }
            while let next = await group.next() {
                guard let outcome = next else { continue }
                group.cancelAll()
                return Task.isCancelled ? nil : outcome
            }
            return nil
        }
    }
}
