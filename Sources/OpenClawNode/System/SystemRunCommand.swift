import OpenClawProtocol

/// `system.run`: runs argv on this machine if, and only if, ``SystemRunJudge`` allows it.
///
/// A refused command is never started: the gateway gets `exec.denied` and the invoke fails with
/// "SYSTEM_RUN_DENIED: <reason>" (`UNAVAILABLE`, or `INVALID_REQUEST` for a request that could never
/// be allowed as written). An allowed one runs without a shell, with an environment built by
/// ``ExecEnvironmentPolicy``, in its own process group (killed whole on timeout), output capped; the
/// gateway gets `exec.finished` with the last 20,000 characters of output.
public struct SystemRunCommand: NodeCommand {
    public let name = NodeCommandName.systemRun
    public let environment: SystemRunEnvironment

    public init(environment: SystemRunEnvironment) {
        self.environment = environment
    }

    public static let eventOutputLimit = 20_000

    public func perform(
        _ params: SystemRunParams, context: NodeInvokeContext
    ) async throws(NodeInvokeError)
        -> SystemRunPayload
    {
        let request: ProcessRequest
        switch environment.judge().judge(params) {
        case .refuse(let error, let reason, let decision):
            await context.note(.decision(decision?.summary ?? "denied (\(reason))"))
            await context.emit(execEvent("exec.denied", params, context: context, reason: reason))
            throw error
        case .run(let allowed, let decision):
            await context.note(.decision(decision.summary))
            request = allowed
        }
        let outcome = try await environment.runner.run(request, output: context.progress)
        if let code = outcome.exitCode { await context.note(.exitCode(code)) }
        let output = String((outcome.stdout + outcome.stderr).suffix(Self.eventOutputLimit))
        var finished = execEvent("exec.finished", params, context: context, reason: nil)
        if case .object(var members) = finished.payload {
            members["exitCode"] = outcome.exitCode.map(JSONValue.int) ?? .null
            members["timedOut"] = .bool(outcome.timedOut)
            members["success"] = .bool(outcome.exitCode == 0 && !outcome.timedOut)
            members["output"] = .string(output)
            finished.payload = .object(members)
        }
        await context.emit(finished)
        return SystemRunPayload(outcome: outcome)
    }

    private func execEvent(
        _ name: String, _ params: SystemRunParams, context: NodeInvokeContext, reason: String?
    )
        -> NodeEvent
    {
        NodeEvent(
            event: name,
            payload: .object(dropping: [
                ("sessionKey", .string(params.sessionKey)), ("runId", .string(params.runId ?? context.invokeId)),
                ("host", "node"), ("command", .string(params.displayCommand)), ("reason", .string(reason)),
            ]))
    }
}
