/// The approvals decision for one `system.run`: the final authority on whether a process starts.
public enum ExecDecision: Sendable, Hashable {
    case allow(ExecAllowReason)
    case deny(ExecDenyReason)

    public var isAllowed: Bool {
        if case .allow = self { return true }
        return false
    }

    /// For the log line: `allowed (allowlist)`, `denied (allowlist miss)`.
    public var summary: String {
        switch self {
        case .allow(let reason): return "allowed (\(reason.rawValue))"
        case .deny(let reason): return "denied (\(reason.rawValue))"
        }
    }
}

public enum ExecAllowReason: String, Sendable, Hashable {
    case securityFull = "security=full"
    case allowlist
    /// The gateway's approver approved this command (`approved` / `approvalDecision`).
    case approved
    case askFallback = "ask fallback"
}

/// Why a command was refused; the raw value follows `SYSTEM_RUN_DENIED:` in the error message.
public enum ExecDenyReason: String, Sendable, Hashable {
    case securityDeny = "security=deny"
    case allowlistMiss = "allowlist miss"
    case approvalRequired = "approval required"
    case userDenied = "user denied"
    /// A shell (which would run any command it is given) needs an allowlist entry naming it exactly.
    case shellNeedsExplicitEntry = "shell requires an explicit allowlist entry"
    /// Likewise an interpreter given code in its arguments, or a program that starts another one
    /// (``ExecProgramRisk``).
    case programNeedsExplicitEntry = "program requires an explicit allowlist entry"
    case executableNotFound = "executable not found"
    case policyUnreadable = "exec approvals file unreadable"
}

/// What the gateway's approver decided, when it was asked.
public enum ExecApprovalDecision: String, Sendable, Hashable {
    case allowOnce = "allow-once"
    case allowAlways = "allow-always"
    case deny
}

/// Evaluates a command against an ``ExecApprovalsFile``. Pure: no I/O, unit-tested.
///
/// Order: `security=deny` refuses everything (no approval overrides it); an approver's `deny` refuses;
/// a risky program under `allowlist` (a shell, inline code, a program that starts another:
/// ``ExecProgramRisk``) needs an entry naming it exactly (no wildcard in the file name); then the
/// allowlist and `ask` decide, and when asking is needed but nobody approved, `askFallback`.
/// `approval` must already be bound to a plan this node prepared (``SystemRunJudge``).
public struct ExecPolicy: Sendable {
    public var file: ExecApprovalsFile
    public var home: String?

    public init(file: ExecApprovalsFile, home: String? = nil) {
        self.file = file
        self.home = home
    }

    /// The effective settings of `agentId`: its own, then the defaults, then fail-closed defaults.
    public func settings(agentId: String?) -> (security: ExecSecurity, ask: ExecAsk, askFallback: ExecSecurity) {
        let agent = file.agents[agentId ?? ExecApprovalsFile.defaultAgent]
        return (
            agent?.security ?? file.defaults.security ?? .deny,
            agent?.ask ?? file.defaults.ask ?? .onMiss,
            agent?.askFallback ?? file.defaults.askFallback ?? .deny
        )
    }

    /// The allowlist entries that apply to `agentId`: its own and those of `*`.
    public func allowlist(agentId: String?) -> [ExecAllowlistEntry] {
        (file.agents[agentId ?? ExecApprovalsFile.defaultAgent]?.allowlist ?? [])
            + (file.agents[ExecApprovalsFile.anyAgent]?.allowlist ?? [])
    }

    /// The entries matching the resolved executable and its arguments, in file order. Entries without
    /// a `/` (a bare name) never match: a name says nothing about which binary runs.
    public func matchingEntries(resolvedPath: String, arguments: [String], agentId: String?) -> [ExecAllowlistEntry] {
        allowlist(agentId: agentId).filter { entry in
            guard entry.pattern.contains("/") || entry.pattern.hasPrefix("~") else { return false }
            guard PathGlob(entry.pattern, home: home).matches(resolvedPath) else { return false }
            guard let argPattern = entry.argPattern, !argPattern.isEmpty else { return true }
            return ArgumentPattern(argPattern).matches(arguments)
        }
    }

    /// `risk` defaults to the strict rule (``ExecProgramRisk/underWildcard(_:resolvedPath:)``): a wildcard
    /// entry covers only a plain program as the system installed it, whoever calls this.
    public func evaluate(
        resolvedPath: String?, arguments: [String], agentId: String?, approval: ExecApprovalDecision?,
        risk: ExecProgramRisk?? = nil
    ) -> ExecDecision {
        let (security, ask, askFallback) = settings(agentId: agentId)
        if security == .deny { return .deny(.securityDeny) }
        if approval == .deny { return .deny(.userDenied) }
        guard let resolvedPath else { return .deny(.executableNotFound) }
        let entries = matchingEntries(resolvedPath: resolvedPath, arguments: arguments, agentId: agentId)
        let risk = risk ?? ExecProgramRisk.underWildcard([resolvedPath] + arguments, resolvedPath: resolvedPath)
        // A risky program needs an entry naming it: any matching entry without a wildcard in its file name.
        let namedExactly = entries.contains { !PathGlob($0.pattern, home: home).hasWildcardInLastComponent }
        // Only where an entry matched: with none, the command is a plain miss.
        let riskBlocked = risk != nil && !entries.isEmpty && !namedExactly
        let allowlisted = !entries.isEmpty && !riskBlocked
        let blockedReason: ExecDenyReason
        if case .shell? = risk {
            blockedReason = .shellNeedsExplicitEntry
        } else {
            blockedReason = .programNeedsExplicitEntry
        }

        let needsApproval: Bool
        switch (security, ask) {
        case (.full, .always), (.allowlist, .always): needsApproval = true
        case (.full, _): return .allow(.securityFull)
        case (.allowlist, _) where allowlisted: return .allow(.allowlist)
        case (.allowlist, .off): return .deny(riskBlocked ? blockedReason : .allowlistMiss)
        default: needsApproval = true
        }
        guard needsApproval else { return .deny(.allowlistMiss) }
        if approval == .allowOnce || approval == .allowAlways { return .allow(.approved) }
        switch askFallback {
        case .full: return .allow(.askFallback)
        case .allowlist where allowlisted: return .allow(.askFallback)
        case .allowlist, .deny: return .deny(riskBlocked ? blockedReason : .approvalRequired)
        }
    }
}
