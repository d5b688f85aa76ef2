import OpenClawProtocol

/// `notify-send` when the node's `PATH` has it (a Linux desktop), otherwise a printed line (escaped by
/// whoever prints it).
public struct DesktopNotifier: Notifier {
    public let runner: any ProcessRunner
    public let searchPath: String
    public let print: @Sendable (String) -> Void

    public init(runner: any ProcessRunner, searchPath: String, print: @escaping @Sendable (String) -> Void) {
        self.runner = runner
        self.searchPath = searchPath
        self.print = print
    }

    public func show(_ notification: NodeNotification) async throws(NodeInvokeError) {
        guard let notifySend = ExecutableResolver(searchPath: searchPath).resolve("notify-send", workingDirectory: nil)
        else {
            print("notification: \(notification.title)\(notification.body.isEmpty ? "" : " — " + notification.body)")
            return
        }
        var arguments = ["--app-name=OpenClaw"]
        if notification.priority == "timeSensitive" || notification.priority == "critical" {
            arguments.append("--urgency=critical")
        }
        // `--` ends the options: a title starting with "-" is text, not a flag. Title and body are the
        // agent's: shown escaped, so a bidirectional override or an invisible character cannot make the
        // desktop's notification read differently from what was sent.
        let title = notification.title.isEmpty ? "OpenClaw" : TerminalText.escapedLine(notification.title)
        arguments += ["--", title, TerminalText.escaped(notification.body)]
        _ = try await runner.run(
            ProcessRequest(
                executablePath: notifySend, arguments: arguments, argv0: "notify-send", timeoutMs: 10_000,
                outputLimit: 4096))
    }
}
