import OpenClawProtocol

/// The one place that decides whether a `system.run` starts a process, and exactly which.
///
/// Every field of the invoke may be forged (by the agent whose tool arguments reach the node, by a
/// third-party gateway, by anyone on a plaintext link), so each check stands on the node's own
/// state: the policy file, the plans it prepared, its `PATH`, its state directory. Order matters
/// only for which reason is reported; every refusal happens before anything is started.
struct SystemRunJudge: Sendable {
    var policy: ExecPolicy?
    var policyHash: String
    var searchPath: String
    var plans: PreparedPlans
    var environmentPolicy: ExecEnvironmentPolicy
    var nodeEnvironment: [String: String]
    var stateGuard: StateDirectoryGuard
    var outputLimit: Int

    enum Verdict: Sendable {
        case run(ProcessRequest, ExecDecision)
        /// `reason` is the short text for `exec.denied` and the log.
        case refuse(NodeInvokeError, reason: String, decision: ExecDecision?)
    }

    /// What both `system.run.prepare` and `system.run` check before the policy: the text an approver
    /// would read, the environment, the wrappers, the state directory. Returns the target.
    func screen(_ params: SystemRunParams) -> Result<Screened, Refusal> {
        if let problem = params.rawCommandProblem {
            return .failure(Refusal(.invalidRequest, problem, reason: "raw command mismatch"))
        }
        let overrides = ExecEnvironmentPolicy.refusal(params.env)
        if !overrides.isEmpty {
            return .failure(
                Refusal(
                    .invalidRequest,
                    "SYSTEM_RUN_DENIED: environment override rejected (\(overrides.describe("override")))",
                    reason: "environment override rejected"))
        }
        var screened = Screened(target: params.argv, targetOffset: 0, wrapperRefusal: nil)
        switch ExecWrapperResolver.resolve(params.argv) {
        case .refused(let wrapper, let why):
            screened.wrapperRefusal = "\(ExecProgramName(wrapper).fileName) (\(why))"
        case .resolved(let chain):
            let assignments = ExecEnvironmentPolicy.refusal(chain.assignments)
            if !assignments.isEmpty {
                return .failure(
                    Refusal(
                        .invalidRequest,
                        "SYSTEM_RUN_DENIED: command env assignment rejected (\(assignments.describe("env assignment")))",
                        reason: "command env assignment rejected"))
            }
            screened.target = chain.target
            screened.targetOffset = chain.targetOffset
        }
        if let path = stateGuard.namedPath(argv: params.argv, cwd: params.cwd) {
            return .failure(
                Refusal(
                    .unavailable,
                    "SYSTEM_RUN_DENIED: the command names this node's own state (\(path)), which agents may not touch",
                    reason: "names the node's state"))
        }
        return .success(screened)
    }

    struct Screened: Sendable {
        var target: [String]
        var targetOffset: Int
        /// A wrapper that cannot be looked through: then the wrapper itself is the target, judged as
        /// a program that runs another.
        var wrapperRefusal: String?
    }

    struct Refusal: Error, Sendable {
        var error: NodeInvokeError
        var reason: String

        init(_ code: NodeErrorCode, _ message: String, reason: String) {
            error = NodeInvokeError(code, message)
            self.reason = reason
        }
    }

    func judge(_ params: SystemRunParams) -> Verdict {
        guard let policy else {
            return refuse(.unavailable, ExecDenyReason.policyUnreadable.rawValue, .deny(.policyUnreadable))
        }
        if policy.settings(agentId: params.agentId).security == .deny {
            return refuse(.unavailable, ExecDenyReason.securityDeny.rawValue, .deny(.securityDeny))
        }
        let screened: Screened
        switch screen(params) {
        case .failure(let refusal): return .refuse(refusal.error, reason: refusal.reason, decision: nil)
        case .success(let value): screened = value
        }
        let resolver = ExecutableResolver(searchPath: searchPath)
        guard let outerPath = resolver.resolve(params.argv[0], workingDirectory: params.cwd),
            let targetPath = resolver.resolve(screened.target[0], workingDirectory: params.cwd)
        else {
            return refuse(.unavailable, ExecDenyReason.executableNotFound.rawValue, .deny(.executableNotFound))
        }

        var approval: ExecApprovalDecision?
        if params.claimsApproval {
            if params.approval == .deny { return refuse(.unavailable, "user denied", .deny(.userDenied)) }
            switch plans.take(ExecPlanBinding(params), policyHash: policyHash) {
            case .bound: approval = params.approval
            case .notPrepared:
                return .refuse(
                    NodeInvokeError(
                        .invalidRequest,
                        "SYSTEM_RUN_DENIED: approval not bound: explicit approval requires a plan this node prepared "
                            + "(system.run.prepare) for exactly this command, directory, agent, session and environment"
                    ),
                    reason: "approval not bound to a prepared plan", decision: nil)
            case .expired:
                return .refuse(
                    NodeInvokeError(
                        .unavailable, "SYSTEM_RUN_DENIED: the approved plan expired; request approval again"),
                    reason: "approval expired", decision: nil)
            case .policyChanged:
                return .refuse(
                    NodeInvokeError(
                        .unavailable, "SYSTEM_RUN_DENIED: exec approval policy changed; request approval again"),
                    reason: "policy changed since approval", decision: nil)
            }
        }

        let risk =
            screened.wrapperRefusal.map(ExecProgramRisk.runsAnotherProgram)
            ?? ExecProgramRisk.of(screened.target, resolvedPath: targetPath)
        let decision = policy.evaluate(
            resolvedPath: targetPath, arguments: Array(screened.target.dropFirst()), agentId: params.agentId,
            approval: approval, risk: risk)
        guard case .allow = decision else {
            guard case .deny(let why) = decision else { return refuse(.unavailable, "denied", decision) }
            var message = why.rawValue
            if let risk, why == .shellNeedsExplicitEntry || why == .programNeedsExplicitEntry {
                message += " (\(risk.description); add an entry naming \(targetPath) exactly, or approve this command)"
            }
            return .refuse(
                NodeInvokeError(.unavailable, "SYSTEM_RUN_DENIED: \(message)"), reason: why.rawValue,
                decision: decision)
        }
        var arguments = Array(params.argv.dropFirst())
        if screened.targetOffset > 0 {
            // The wrapper starts exactly the file the policy judged, whatever its own PATH lookup would find.
            arguments[screened.targetOffset - 1] = targetPath
        }
        let request = ProcessRequest(
            executablePath: outerPath, arguments: arguments, argv0: params.argv[0], workingDirectory: params.cwd,
            environment: environmentPolicy.childEnvironment(
                node: nodeEnvironment, searchPath: searchPath, request: params.env),
            replacesEnvironment: true, timeoutMs: params.timeoutMs, outputLimit: outputLimit)
        return .run(request, decision)
    }

    private func refuse(_ code: NodeErrorCode, _ reason: String, _ decision: ExecDecision) -> Verdict {
        .refuse(NodeInvokeError(code, "SYSTEM_RUN_DENIED: \(reason)"), reason: reason, decision: decision)
    }
}
