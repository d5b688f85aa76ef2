import ArgumentParser
import OpenClawNode
import OpenClawProtocol

extension ExecSecurity: ExpressibleByArgument {}
extension ExecAsk: ExpressibleByArgument {}

/// `openclaw-chat approvals`: this computer's exec-approvals policy (the default subcommand, so
/// `approvals [options] [allow|deny PATTERN]` works as it always did) and `approvals watch`, which
/// approves the agent's commands as an operator.
struct ApprovalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approvals",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Edit this computer's exec approvals policy, or approve the agent's commands (watch).",
        subcommands: [ApprovalsPolicyCommand.self, ApprovalsWatchCommand.self],
        defaultSubcommand: ApprovalsPolicyCommand.self
    )

    static func defaultPath(_ state: StateDirectory) -> String { ApprovalsPolicyCommand.defaultPath(state) }

    static func summary(of store: ExecApprovalsStore) -> String { ApprovalsPolicyCommand.summary(of: store) }
}

/// `openclaw-chat approvals [policy]`: shows and edits this computer's exec-approvals policy, the file
/// `openclaw-chat node` enforces for every `system.run`.
///
/// `approvals` shows it; `approvals allow PATTERN` adds an allowlist entry, `approvals deny PATTERN`
/// removes one; `--security` and `--ask` set the defaults (or the agent's, with `--agent`). Every edit
/// is a compare-and-set against the file as read, so a concurrent change is reported, not overwritten.
struct ApprovalsPolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Show or edit the exec approvals policy of `openclaw-chat node` (the default).",
        discussion: """
            Patterns are case-insensitive globs over the executable's resolved path: * within one \
            directory, ** across directories, ~ for your home. Bare names (git) match nothing.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The exec approvals file (default: exec-approvals.json in the state directory).")
    var file: String?
    @Option(help: "The agent whose settings or allowlist to edit.") var agent = ExecApprovalsFile.defaultAgent
    @Option(help: "What runs at all: deny, allowlist or full.") var security: ExecSecurity?
    @Option(help: "When to ask the gateway's approver: off, on-miss or always.") var ask: ExecAsk?
    @Option(help: "What to do when asking is needed and nobody approved: deny, allowlist or full.")
    var askFallback: ExecSecurity?
    @Argument(help: "allow PATTERN | deny PATTERN") var action: [String] = []

    static func defaultPath(_ state: StateDirectory) -> String { state.path + "/" + ExecApprovalsStore.fileName }

    func run() async throws {
        let terminal = Terminal()
        let store = ExecApprovalsStore(path: file ?? Self.defaultPath(global.state))
        do {
            var snapshot = try store.snapshot()
            var edited = snapshot.file
            let notice = try apply(to: &edited)
            if let notice { terminal.line(terminal.styled(notice, .yellow)) }
            if edited != snapshot.file {
                snapshot = try store.set(edited, baseHash: snapshot.hash)
                terminal.line("saved \(store.path)")
            }
            // The gateway can write this file (system.execApprovals.set): its patterns are escaped.
            terminal.line(TerminalText.escaped(Self.describe(snapshot)))
        } catch let error as ExecApprovalsError {
            throw report(CLIError.message(error.description, status: ExitStatus.local), terminal: terminal)
        }
    }

    /// Edits the file as asked; returns a line to show when the request changes nothing it names (a
    /// `deny` of a pattern the allowlist does not have).
    private func apply(to file: inout ExecApprovalsFile) throws -> String? {
        let usesAgent = agent != ExecApprovalsFile.defaultAgent
        let removesAbsentPattern =
            action.count == 2 && action[0] == Verb.deny.rawValue
            && !(file.agents[agent]?.allowlist ?? []).contains { $0.pattern == action[1] }
        if usesAgent || (!action.isEmpty && !removesAbsentPattern), file.agents[agent] == nil {
            file.agents[agent] = ExecPolicySettings()
        }
        var settings = usesAgent ? file.agents[agent] ?? ExecPolicySettings() : file.defaults
        settings.security = security ?? settings.security
        settings.ask = ask ?? settings.ask
        settings.askFallback = askFallback ?? settings.askFallback
        if usesAgent { file.agents[agent] = settings } else { file.defaults = settings }
        guard !action.isEmpty else { return nil }
        guard action.count == 2, let verb = Verb(rawValue: action[0]) else {
            throw ValidationError("expected `allow PATTERN` or `deny PATTERN`")
        }
        let pattern = action[1]
        var list = file.agents[agent]?.allowlist ?? []
        switch verb {
        case .allow:
            guard pattern.contains("/") || pattern.hasPrefix("~") else {
                throw ValidationError("a pattern must be a path (/usr/bin/git, ~/bin/*): bare names match nothing")
            }
            if !list.contains(where: { $0.pattern == pattern }) { list.append(ExecAllowlistEntry(pattern: pattern)) }
        case .deny:
            guard !removesAbsentPattern else {
                return
                    "\(TerminalText.escapedLine(pattern)) is not in the allowlist of agent \(agent): nothing removed."
            }
            list.removeAll { $0.pattern == pattern }
        }
        file.agents[agent]?.allowlist = list
        return nil
    }

    private enum Verb: String {
        case allow
        case deny
    }

    /// One line for `openclaw-chat node`'s start: where the policy is and what it says.
    static func summary(of store: ExecApprovalsStore) -> String {
        guard let snapshot = try? store.snapshot() else {
            return "exec approvals: \(store.path) is unreadable, so system.run denies everything"
        }
        let policy = ExecPolicy(file: snapshot.file)
        let (security, ask, _) = policy.settings(agentId: nil)
        let entries = policy.allowlist(agentId: nil).count
        let origin = snapshot.exists ? store.path : "\(store.path) (absent: defaults)"
        return
            "exec approvals: \(origin): security=\(security.rawValue), ask=\(ask.rawValue), \(entries) allowlist entries"
    }

    static func describe(_ snapshot: ExecApprovalsSnapshot) -> String {
        var lines = ["\(snapshot.path)\(snapshot.exists ? "" : " (absent: the defaults below apply)")"]
        let defaults = snapshot.file.defaults
        lines.append(
            "defaults  security=\(defaults.security?.rawValue ?? "deny") ask=\(defaults.ask?.rawValue ?? "on-miss") "
                + "askFallback=\(defaults.askFallback?.rawValue ?? "deny")")
        for name in snapshot.file.agents.keys.sorted() {
            guard let settings = snapshot.file.agents[name] else { continue }
            var overrides: [String] = []
            if let value = settings.security { overrides.append("security=\(value.rawValue)") }
            if let value = settings.ask { overrides.append("ask=\(value.rawValue)") }
            if let value = settings.askFallback { overrides.append("askFallback=\(value.rawValue)") }
            lines.append("agent \(name)  \(overrides.isEmpty ? "(defaults)" : overrides.joined(separator: " "))")
            for entry in settings.allowlist ?? [] {
                lines.append("  allow \(entry.pattern)\(entry.argPattern.map { " args \($0)" } ?? "")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
