/// Where `system.run` finds its policy, what it may pass to a command, and how it starts processes.
public struct SystemRunEnvironment: Sendable {
    public var approvals: ExecApprovalsStore
    public var runner: any ProcessRunner
    /// The node's `PATH`, used to resolve bare names and given to every command (a request cannot
    /// change it).
    public var searchPath: String
    public var home: String?
    /// Per stream (upstream: 200k).
    public var outputLimit: Int
    /// The plans `system.run.prepare` made, shared with ``SystemRunPrepareCommand``.
    public var plans: PreparedPlans
    public var environmentPolicy: ExecEnvironmentPolicy
    /// The node's own environment, from which ``ExecEnvironmentPolicy`` takes the base names.
    public var nodeEnvironment: [String: String]
    /// The node's state directory and anything else no command may name (``StateDirectoryGuard``).
    public var protectedPaths: [String]

    public init(
        approvals: ExecApprovalsStore, runner: any ProcessRunner, searchPath: String, home: String?,
        outputLimit: Int = 200_000, plans: PreparedPlans = PreparedPlans(),
        environmentPolicy: ExecEnvironmentPolicy = ExecEnvironmentPolicy(), nodeEnvironment: [String: String] = [:],
        protectedPaths: [String] = []
    ) {
        self.approvals = approvals
        self.runner = runner
        self.searchPath = searchPath
        self.home = home
        self.outputLimit = outputLimit
        self.plans = plans
        self.environmentPolicy = environmentPolicy
        self.nodeEnvironment = nodeEnvironment
        self.protectedPaths = protectedPaths + [approvals.path, approvals.path + ".lock"]
    }

    /// A judge over the policy as it is now: the approvals file is read for every command, so an
    /// edit applies to the next one; an unreadable file denies.
    func judge() -> SystemRunJudge {
        let snapshot = try? approvals.snapshot()
        return SystemRunJudge(
            policy: snapshot.map { ExecPolicy(file: $0.file, home: home) }, policyHash: snapshot?.hash ?? "",
            searchPath: searchPath, plans: plans, environmentPolicy: environmentPolicy,
            nodeEnvironment: nodeEnvironment, stateGuard: StateDirectoryGuard(protectedPaths: protectedPaths),
            outputLimit: outputLimit)
    }
}
