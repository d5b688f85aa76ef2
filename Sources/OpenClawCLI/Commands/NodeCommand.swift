import ArgumentParser
import OpenClawGateway
import OpenClawNode
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `openclaw-chat node`: this computer as an OpenClaw node, in the foreground.
///
/// Connects with `role: "node"`, declares its commands, and runs what the agent asks — `system.run`
/// only as far as the local exec-approvals policy allows. One line per invoke: command, decision,
/// exit code, duration (never arguments' output). Reconnects by itself; Ctrl-C stops it.
struct NodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "node",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Run this computer as an OpenClaw node: the agent can run commands here, under your exec approvals."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The exec approvals file (default: exec-approvals.json in the state directory).")
    var approvals: String?
    @Option(help: "The name the gateway shows for this node.") var displayName: String?
    @Flag(
        help: ArgumentHelp(
            "Connect with ws:// to a gateway that is not on this machine.",
            discussion:
                "Without TLS anyone on the path can read the token and send this node commands. Also \(insecureEnvironmentVariable)=1."
        ))
    var allowInsecureWs = false
    @Flag(help: "When the gateway refuses this node for a reason only you can fix, say so and keep retrying.")
    var keepTrying = false
    @Option(
        name: .customLong("pass-env"),
        help: ArgumentHelp(
            "Pass this variable of yours to the agent's commands (repeatable).",
            discussion: "By default commands get only HOME, USER, LANG, LC_*, TZ, TMPDIR, TERM and the node's PATH.",
            valueName: "NAME"))
    var passEnv: [String] = []

    /// Upstream's spelling of the same opt-in, so one setting serves both node hosts.
    static let insecureEnvironmentVariable = "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS"

    func run() async throws {
        // First: a Ctrl-C from here on stops the node cleanly instead of killing the process.
        let signals = SignalEvents([SIGINT, SIGTERM])
        defer { signals.cancel() }
        let terminal = Terminal()
        guard let target = try global.resolveGateway(localDefault: false) else {
            throw report(CLIError.noGatewayConfigured, terminal: terminal)
        }
        if let refusal = Self.transportRefusal(
            target.url, flag: allowInsecureWs, environment: global.environment[Self.insecureEnvironmentVariable])
        {
            throw report(refusal, terminal: terminal)
        }
        let store = ExecApprovalsStore(path: approvals ?? ApprovalsCommand.defaultPath(global.state))
        let searchPath = global.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let runner = SubprocessRunner()
        let commands = DesktopNode.commands(
            approvals: store, runner: runner,
            notifier: DesktopNotifier(
                runner: runner, searchPath: searchPath, print: { terminal.line(TerminalText.escaped($0)) }),
            searchPath: searchPath, home: global.environment["HOME"], nodeEnvironment: global.environment,
            passThrough: Set(passEnv), stateDirectory: global.state.path)
        let declaration = DesktopNode.declaration(commands: commands, searchPath: searchPath)
        let connection = global.makeConnection(
            url: target.url, credential: target.credential, terminal: terminal, reconnect: .standard
        ) { configuration in
            configuration.client = Self.client(displayName: displayName)
            configuration.role = .node
            configuration.scopes = []
            configuration.caps = DesktopNode.caps
            configuration.nodeDeclaration = declaration
        }
        let host = NodeHost(connection: connection, commands: commands, logger: global.makeLogger())

        terminal.line("node commands: \(NodeHost.commandNames(commands).joined(separator: ", "))")
        terminal.line(ApprovalsCommand.summary(of: store))
        await host.start()
        // Unstructured: prints while the node runs; ends when the host stops (its activity stream ends).
        let printer = Task {
            for await activity in host.activity { terminal.line(TerminalText.escaped(activity.line)) }
        }
        do {
            let session = try await global.connectTrusting(connection, terminal: terminal)
            terminal.line(
                "\(terminal.styled("●", .green)) connected to \(TerminalText.escapedLine(target.url.description)) as node \(session.deviceId)"
            )
            terminal.line("Ctrl-C stops the node.")
        } catch {
            await host.stop()
            printer.cancel()
            throw report(error, terminal: terminal)
        }
        let lasting = LastingConnection(connection: connection, keepTrying: keepTrying)
        let failure = await withTaskGroup(of: GatewayError?.self) { group in
            group.addTask { await lasting.firstUnrecoverableFailure(terminal: terminal) }
            group.addTask {
                for await _ in signals.stream { break }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        terminal.line(failure == nil ? "stopping the node" : "the node stopped: the gateway no longer accepts it")
        await host.stop()
        await connection.disconnect()
        await printer.value
        if let failure { throw report(failure, terminal: terminal) }
    }

    /// A node runs what arrives on its socket (under its policy), so a plaintext link to another
    /// machine lets whoever sits on the path forge invokes and approvals: refused unless opted in.
    /// Loopback is decided on the parsed address (``GatewayURL/isLoopback``).
    static func transportRefusal(_ url: GatewayURL, flag: Bool, environment: String?) -> CLIError? {
        guard !url.isSecure, !url.isLoopback, !flag, environment != "1" else { return nil }
        return .message(
            """
            Refusing to run a node over ws:// to \(url.description): without TLS, anyone on the network path can \
            read the token and send this node commands.
            Use wss:// (see `openclaw-chat trust`), or pass --allow-insecure-ws (or set \
            \(insecureEnvironmentVariable)=1) if this network is yours alone.
            """, status: ExitStatus.usage)
    }

    static func client(displayName: String?) -> ClientInfo {
        let base = ClientIdentity.terminal
        return ClientInfo(
            id: .nodeHost, mode: .node, version: base.version, platform: base.platform,
            displayName: displayName ?? "node on \(ProcessInfo.processInfo.hostName)", deviceFamily: base.deviceFamily)
    }
}
