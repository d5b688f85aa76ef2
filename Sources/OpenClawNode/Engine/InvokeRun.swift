import OpenClawProtocol

/// One invoke's run: the command, its deadline and the gateway's `node.invoke.cancel`, raced as
/// children of one task, so that whichever ends first cancels the others (a process is killed with its
/// process group when the command is cancelled) and nothing of the invoke outlives it.
struct InvokeRun: Sendable {
    let perform: @Sendable () async -> Result<JSONValue, NodeInvokeError>
    let timeoutMs: Int?
    /// Ends the run with `CANCELLED` when it yields; finishing it without a value ends nothing.
    let cancellation: AsyncStream<Void>

    /// The first outcome; nil when the task running it was cancelled from outside (the host stopped).
    func outcome() async -> Result<JSONValue, NodeInvokeError>? {
        await withTaskGroup(of: Result<JSONValue, NodeInvokeError>?.self) { group in
            group.addTask { await perform() }
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
