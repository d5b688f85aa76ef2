import OpenClawProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        if let problem = params.sizeProblem {
            return .failure(Refusal(.invalidRequest, "SYSTEM_RUN_DENIED: \(problem)", reason: "command too large"))
        }
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
        var screened = Screened(target: params.argv, targetOffset: 0, wrapperOffsets: [], wrapperRefusal: nil)
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
            screened.wrapperOffsets = chain.wrapperOffsets
        }
        if let path = stateGuard.namedPath(argv: params.argv, cwd: params.cwd, environment: params.env) {
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
        var wrapperOffsets: [Int]
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
        let (targetOffset, pinned) = verifiedWrappers(screened, params, policy: policy, resolver: resolver)
        let target = Array(params.argv[targetOffset...])
        guard let outerPath = pinned[0] ?? resolver.resolve(params.argv[0], workingDirectory: params.cwd),
            let targetPath = pinned[targetOffset] ?? resolver.resolve(target[0], workingDirectory: params.cwd)
        else {
            return refuse(.unavailable, ExecDenyReason.executableNotFound.rawValue, .deny(.executableNotFound))
        }

        var approval: ExecApprovalDecision?
        if params.claimsApproval {
            if params.approval == .deny { return refuse(.unavailable, "user denied", .deny(.userDenied)) }
            switch plans.take(ExecPlanBinding(params, files: fileFingerprint(params)), policyHash: policyHash) {
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
            ?? ExecProgramRisk.underWildcard(target, resolvedPath: targetPath)
        let decision = policy.evaluate(
            resolvedPath: targetPath, arguments: Array(target.dropFirst()), agentId: params.agentId,
            approval: approval, risk: risk)
        guard case .allow = decision else {
            guard case .deny(let why) = decision else { return refuse(.unavailable, "denied", decision) }
            var message = why.rawValue
            if let risk, why == .shellNeedsExplicitEntry || why == .programNeedsExplicitEntry || why == .allowlistMiss {
                message += " (\(risk.description); add an entry naming \(targetPath) exactly, or approve this command)"
            }
            return .refuse(
                NodeInvokeError(.unavailable, "SYSTEM_RUN_DENIED: \(message)"), reason: why.rawValue,
                decision: decision)
        }
        // Each wrapper starts exactly the file that was judged, whatever its own PATH lookup would find.
        var arguments = Array(params.argv.dropFirst())
        for (offset, path) in pinned where offset > 0 { arguments[offset - 1] = path }
        if targetOffset > 0 { arguments[targetOffset - 1] = targetPath }
        let request = ProcessRequest(
            executablePath: outerPath, arguments: arguments, argv0: params.argv[0], workingDirectory: params.cwd,
            environment: environmentPolicy.childEnvironment(
                node: nodeEnvironment, searchPath: searchPath, request: params.env),
            replacesEnvironment: true, timeoutMs: SystemRunParams.effectiveTimeoutMs(params.timeoutMs),
            outputLimit: outputLimit)
        return .run(request, decision)
    }

    /// What `system.run.prepare` does: the same screen as a run, then the plan is remembered with the
    /// files it names as they are now.
    func prepare(_ params: SystemRunParams) -> Result<Void, Refusal> {
        if case .failure(let refusal) = screen(params) { return .failure(refusal) }
        plans.record(ExecPlanBinding(params, files: fileFingerprint(params)), policyHash: policyHash)
        return .success(())
    }

    /// The program (`argv[0]`, resolved as a run would) and working directory as files: real paths
    /// with device, inode, size and modification time.
    func fileFingerprint(_ params: SystemRunParams) -> String {
        let resolver = ExecutableResolver(searchPath: searchPath)
        let program = resolver.resolve(params.argv[0], workingDirectory: params.cwd)
        let directory = params.cwd.map(StateDirectoryGuard.resolvingLinks)
        return [program, directory].map { path in
            guard let path else { return "-" }
            var status = stat()
            guard stat(path, &status) == 0 else { return path }
            #if canImport(Darwin)
                let modified = status.st_mtimespec
            #else
                let modified = status.st_mtim
            #endif
            return "\(path)@\(status.st_dev):\(status.st_ino):\(status.st_size):\(modified.tv_sec).\(modified.tv_nsec)"
        }.joined(separator: "|")
    }

    /// Looks through a wrapper only when it is the real one: its file resolves (the node's `PATH`, or the
    /// path as written) to a program of the same wrapper kind, and, under `allowlist`, an entry covers
    /// it. Otherwise the chain stops there and that file is what the policy judges: a script named
    /// `nice` in a writable directory is not `nice`. Returns where the judged command starts and the
    /// resolved path of each wrapper looked through, by argv index.
    private func verifiedWrappers(
        _ screened: Screened, _ params: SystemRunParams, policy: ExecPolicy, resolver: ExecutableResolver
    ) -> (targetOffset: Int, pinned: [Int: String]) {
        let security = policy.settings(agentId: params.agentId).security
        var pinned: [Int: String] = [:]
        for offset in screened.wrapperOffsets {
            let name = params.argv[offset]
            guard let path = resolver.resolve(name, workingDirectory: params.cwd),
                let kind = DispatchWrapper(programName: ExecProgramName(name)),
                DispatchWrapper(programName: ExecProgramName(path)) == kind
            else { return (offset, pinned) }
            if security != .full {
                let arguments = Array(params.argv[(offset + 1)...])
                let entries = policy.matchingEntries(resolvedPath: path, arguments: arguments, agentId: params.agentId)
                guard !entries.isEmpty else { return (offset, pinned) }
            }
            pinned[offset] = path
        }
        return (screened.targetOffset, pinned)
    }

    private func refuse(_ code: NodeErrorCode, _ reason: String, _ decision: ExecDecision) -> Verdict {
        .refuse(NodeInvokeError(code, "SYSTEM_RUN_DENIED: \(reason)"), reason: reason, decision: decision)
    }
}
