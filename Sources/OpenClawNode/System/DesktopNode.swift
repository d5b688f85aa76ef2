import OpenClawGateway
import OpenClawProtocol

/// The commands of a desktop node host (Linux, macOS): `system.run`, `system.run.prepare`,
/// `system.which`, `system.notify`, `system.execApprovals.get/set`.
public enum DesktopNode {
    public static let caps = ["system"]

    /// `nodeEnvironment`: the node process's environment, from which commands get only the base
    /// names and `passThrough`; `stateDirectory`: what no command may name.
    public static func commands(
        approvals: ExecApprovalsStore, runner: any ProcessRunner, notifier: any Notifier, searchPath: String,
        home: String?, nodeEnvironment: [String: String] = [:], passThrough: Set<String> = [],
        stateDirectory: String? = nil
    ) -> [any NodeCommand] {
        let environment = SystemRunEnvironment(
            approvals: approvals, runner: runner, searchPath: searchPath, home: home,
            environmentPolicy: ExecEnvironmentPolicy(passThrough: passThrough), nodeEnvironment: nodeEnvironment,
            protectedPaths: stateDirectory.map { [$0] } ?? [])
        return [
            SystemRunCommand(environment: environment), SystemRunPrepareCommand(environment: environment),
            SystemWhichCommand(searchPath: searchPath),
            SystemNotifyCommand(notifier: notifier), ExecApprovalsGetCommand(store: approvals),
            ExecApprovalsSetCommand(store: approvals),
        ]
    }

    /// What the node declares in `connect`: its commands, and `system.run` as a granted permission
    /// (the approvals policy still decides each command).
    public static func declaration(commands: [any NodeCommand], searchPath: String) -> NodeDeclaration {
        NodeDeclaration(
            commands: NodeHost.commandNames(commands), permissions: [NodeCommandName.systemRun: true],
            pathEnv: searchPath)
    }
}
