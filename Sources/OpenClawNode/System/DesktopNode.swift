import OpenClawGateway

/// The commands of a desktop node host (Linux, macOS): `system.run`, `system.run.prepare`,
/// `system.which`, `system.notify`, `system.execApprovals.get/set`.
public enum DesktopNode {
    public static let caps = ["system"]

    public static func commands(
        approvals: ExecApprovalsStore, runner: any ProcessRunner, notifier: any Notifier, searchPath: String,
        home: String?
    ) -> [any NodeCommand] {
        [
            SystemRunCommand(
                environment: SystemRunEnvironment(
                    approvals: approvals, runner: runner, searchPath: searchPath, home: home)),
            SystemRunPrepareCommand(), SystemWhichCommand(searchPath: searchPath),
            SystemNotifyCommand(notifier: notifier), ExecApprovalsGetCommand(store: approvals),
            ExecApprovalsSetCommand(store: approvals),
        ]
    }

    /// What the node declares in `connect`: its commands, and `system.run` as a granted permission
    /// (the approvals policy still decides each command).
    public static func declaration(commands: [any NodeCommand], searchPath: String) -> NodeDeclaration {
        NodeDeclaration(
            commands: NodeHost.commandNames(commands), permissions: ["system.run": true], pathEnv: searchPath)
    }
}
