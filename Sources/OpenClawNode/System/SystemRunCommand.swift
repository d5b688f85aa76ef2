import OpenClawProtocol

/// Where `system.run` finds its policy and how it starts processes.
public struct SystemRunEnvironment: Sendable {
    public var approvals: ExecApprovalsStore
    public var runner: any ProcessRunner
    /// The node's `PATH`, used to resolve bare names (a request cannot change it).
    public var searchPath: String
    public var home: String?
    /// Per stream (upstream: 200k).
    public var outputLimit: Int

    public init(
        approvals: ExecApprovalsStore, runner: any ProcessRunner, searchPath: String, home: String?,
        outputLimit: Int = 200_000
    ) {
        self.approvals = approvals
        self.runner = runner
        self.searchPath = searchPath
        self.home = home
        self.outputLimit = outputLimit
    }

    /// Resolves argv[0] and asks the policy. The approvals file is read for every command, so an edit
    /// applies to the next one; an unreadable file denies.
    func decide(_ params: SystemRunParams) -> (decision: ExecDecision, resolvedPath: String?) {
        let resolved = ExecutableResolver(searchPath: searchPath).resolve(params.argv[0], workingDirectory: params.cwd)
        guard let policy = approvals.policy(home: home) else { return (.deny(.policyUnreadable), resolved) }
        let decision = policy.evaluate(
            resolvedPath: resolved, arguments: Array(params.argv.dropFirst()), agentId: params.agentId,
            approval: params.approval)
        return (decision, resolved)
    }
}

/// `system.run`: runs argv on this machine if, and only if, the exec-approvals policy allows it.
///
/// A refused command is never started: the gateway gets `exec.denied` and the invoke fails with
/// `UNAVAILABLE` "SYSTEM_RUN_DENIED: <reason>". An allowed one runs without a shell, with the request's
/// environment sanitised, in its own process group (killed whole on timeout), output capped; the
/// gateway gets `exec.finished` with the last 20,000 characters of output.
public struct SystemRunCommand: NodeCommand {
    public let name = "system.run"
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
        let (decision, resolvedPath) = environment.decide(params)
        await context.note(.decision(decision.summary))
        guard case .allow = decision, let resolvedPath else {
            let reason: String
            if case .deny(let why) = decision {
                reason = why.rawValue
            } else {
                reason = ExecDenyReason.executableNotFound.rawValue
            }
            await context.emit(execEvent("exec.denied", params, context: context, reason: reason))
            throw NodeInvokeError(.unavailable, "SYSTEM_RUN_DENIED: \(reason)")
        }
        let (kept, _) = EnvironmentSanitizer.sanitize(params.env)
        let request = ProcessRequest(
            executablePath: resolvedPath, arguments: Array(params.argv.dropFirst()), argv0: params.argv[0],
            workingDirectory: params.cwd, environment: kept, timeoutMs: params.timeoutMs,
            outputLimit: environment.outputLimit)
        let outcome = try await environment.runner.run(request)
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
