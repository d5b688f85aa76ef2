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
/// a shell under `allowlist` needs an entry naming that shell exactly (no wildcard in the file name);
/// then the allowlist and `ask` decide, and when asking is needed but nobody approved, `askFallback`.
public struct ExecPolicy: Sendable {
    public var file: ExecApprovalsFile
    public var home: String?

    public init(file: ExecApprovalsFile, home: String? = nil) {
        self.file = file
        self.home = home
    }

    public static let shells: Set<String> = [
        "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox", "pwsh", "env",
    ]

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

    /// The first entry matching the resolved executable and its arguments. Entries without a `/` (a
    /// bare name) never match: a name says nothing about which binary runs.
    public func matchingEntry(resolvedPath: String, arguments: [String], agentId: String?) -> ExecAllowlistEntry? {
        allowlist(agentId: agentId).first { entry in
            guard entry.pattern.contains("/") || entry.pattern.hasPrefix("~") else { return false }
            guard PathGlob(entry.pattern, home: home).matches(resolvedPath) else { return false }
            guard let argPattern = entry.argPattern, !argPattern.isEmpty else { return true }
            return PathGlob(argPattern).matches(arguments.joined(separator: " "))
        }
    }

    public func evaluate(
        resolvedPath: String?, arguments: [String], agentId: String?, approval: ExecApprovalDecision?
    ) -> ExecDecision {
        let (security, ask, askFallback) = settings(agentId: agentId)
        if security == .deny { return .deny(.securityDeny) }
        if approval == .deny { return .deny(.userDenied) }
        guard let resolvedPath else { return .deny(.executableNotFound) }
        let entry = matchingEntry(resolvedPath: resolvedPath, arguments: arguments, agentId: agentId)
        let name = resolvedPath.split(separator: "/").last.map(String.init) ?? resolvedPath
        let isShell = Self.shells.contains(name.lowercased())
        let shellBlocked =
            isShell && (entry.map { PathGlob($0.pattern, home: home).hasWildcardInLastComponent } ?? true)
        let allowlisted = entry != nil && !shellBlocked

        let needsApproval: Bool
        switch (security, ask) {
        case (.full, .always), (.allowlist, .always): needsApproval = true
        case (.full, _): return .allow(.securityFull)
        case (.allowlist, _) where allowlisted: return .allow(.allowlist)
        case (.allowlist, .off): return .deny(shellBlocked ? .shellNeedsExplicitEntry : .allowlistMiss)
        default: needsApproval = true
        }
        guard needsApproval else { return .deny(.allowlistMiss) }
        if approval == .allowOnce || approval == .allowAlways { return .allow(.approved) }
        switch askFallback {
        case .full: return .allow(.askFallback)
        case .allowlist where allowlisted: return .allow(.askFallback)
        case .allowlist, .deny: return .deny(shellBlocked ? .shellNeedsExplicitEntry : .approvalRequired)
        }
    }
}
