import Dispatch
import Foundation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The interactive chat: type a message, watch the reply stream; slash commands for the rest.
/// Ctrl-C stops the running reply; a second Ctrl-C, or Ctrl-D on an empty line, quits.
@MainActor
final class InteractiveChat {
    private let viewModel: ChatViewModel
    /// For `/reconnect`: the connection decides whether a new socket is needed.
    private let connection: GatewayConnection
    private let terminal: Terminal
    private let gatewayLabel: String
    private var quitRequested = false
    private var lastInterrupt: ContinuousClock.Instant?

    init(viewModel: ChatViewModel, connection: GatewayConnection, terminal: Terminal, gatewayLabel: String) {
        self.viewModel = viewModel
        self.connection = connection
        self.terminal = terminal
        self.gatewayLabel = gatewayLabel
    }

    func run() async -> Int32 {
        await viewModel.start()
        if case .failed(let error) = viewModel.connectionState {
            terminal.error(error.message, hint: error.nextStep)
            return ExitStatus.of(error)
        }
        if let session = viewModel.connectionState.session {
            let name = viewModel.agentIdentity?.name.map { " — agent \($0)" } ?? ""
            terminal.line(
                terminal.styled(
                    "● connected to \(gatewayLabel) (protocol \(session.protocolVersion.rawValue))\(name)", .green)
            )
        }
        if let status = viewModel.connectionState.reconnectStatus {
            terminal.line(terminal.styled("○ \(status.summary()) — messages you type now are queued", .yellow))
        }
        terminal.line(terminal.styled("Type a message and press Enter. /help lists commands; Ctrl-D quits.", .dim))
        showRecentHistory()
        let interrupts = installInterruptHandler()
        defer { interrupts.cancel() }
        let stateWatcher = watchConnection()
        defer { stateWatcher.cancel() }

        for await line in LineReader.lines() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("/") {
                await command(text)
            } else if !text.isEmpty {
                await send(text)
            }
            if quitRequested { break }
            prompt()
        }
        // Quitting is not news: stop reporting the connection before closing it.
        stateWatcher.cancel()
        await viewModel.stop()
        return 0
    }

    // MARK: - Messages

    private func send(_ text: String) async {
        let runId = await viewModel.send(text)
        var follower = RunFollower(
            viewModel: viewModel,
            terminal: terminal,
            output: RunOutput(format: .text, showsActivity: true)
        )
        switch await follower.follow(runId: runId, stopOnDisconnect: true) {
        case .completed: break
        case .stopped: terminal.line(terminal.styled("■ stopped", .yellow))
        case .failed(let message): terminal.error("The agent's run failed: \(message)", hint: nil)
        case .notSent(let reason): terminal.error("Not sent: \(reason)", hint: "Use /retry to send it again.")
        case .queued:
            terminal.line(
                terminal.styled("◷ queued: it will be sent when the connection is back (/reconnect).", .yellow))
        case .connectionLost(let reason):
            terminal.error(
                "Connection lost: \(reason.map { "\($0)" } ?? "unknown")",
                hint: "It reconnects by itself when it can; /reconnect tries now.")
        }
    }

    private func showRecentHistory() {
        let recent = viewModel.messages.suffix(6)
        guard !recent.isEmpty else { return }
        terminal.line(terminal.styled("— last messages in \(viewModel.currentSessionKey) —", .dim))
        for entry in recent { printEntry(entry) }
    }

    private func printEntry(_ entry: TranscriptEntry) {
        switch entry.role {
        case .user: terminal.line(terminal.styled("you  ", .cyan) + entry.text)
        case .assistant where !entry.text.isEmpty: terminal.line(terminal.styled("agent", .green) + "  " + entry.text)
        default: break
        }
    }

    // MARK: - Slash commands

    private func command(_ line: String) async {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch parts[0] {
        case "/help":
            for (name, text) in Self.help {
                let column = name.padding(toLength: 14, withPad: " ", startingAt: 0)
                terminal.line("  \(terminal.styled(column, .bold))\(text)")
            }
        case "/quit", "/exit": quitRequested = true
        case "/abort": await viewModel.abort()
        case "/think":
            viewModel.thinkingLevel = argument.isEmpty || argument == "default" ? nil : argument
            terminal.line("thinking level: \(viewModel.thinkingLevel ?? "session default")")
        case "/sessions":
            await viewModel.refreshSessions()
            for session in viewModel.sessions {
                let marker = session.key == viewModel.currentSessionKey ? "●" : " "
                terminal.line(" \(marker) \(terminal.styled(session.key, .bold))  \(session.title)")
            }
        case "/session":
            guard !argument.isEmpty else {
                terminal.line("current session: \(viewModel.currentSessionKey)")
                return
            }
            await viewModel.switchSession(to: argument)
            terminal.line(terminal.styled("switched to \(argument)", .dim))
            showRecentHistory()
        case "/history":
            let count = Int(argument) ?? 20
            await viewModel.refreshHistory()
            for entry in viewModel.messages.suffix(max(1, count)) { printEntry(entry) }
        case "/status":
            describeStatus()
        case "/reconnect":
            await connection.reconnectNow()
            describeStatus()
        case "/retry":
            if let failed = viewModel.messages.last(where: {
                $0.role == .user && ($0.status.isFailed || $0.status == .unconfirmed)
            }) {
                await viewModel.retry(messageID: failed.id)
            } else {
                terminal.line("nothing to retry")
            }
        case "/search":
            guard !argument.isEmpty else {
                terminal.line("usage: /search WORDS")
                return
            }
            SearchOutput.print(await viewModel.search(argument), terminal: terminal, showGateway: false)
        default:
            terminal.error("unknown command \(parts[0])", hint: "/help lists the commands.")
        }
    }

    static let help: [(String, String)] = [
        ("/help", "this list"), ("/sessions", "list sessions"), ("/session KEY", "switch to a session"),
        ("/history [N]", "show the last N messages"), ("/abort", "stop the running reply (or Ctrl-C)"),
        ("/think LEVEL", "off, minimal, low, medium, high, xhigh, or default"), ("/search Q", "search transcripts"),
        ("/status", "connection details"), ("/reconnect", "connect now (when offline or waiting to reconnect)"),
        ("/retry", "resend the last failed message"),
        ("/quit", "leave (or Ctrl-D)"),
    ]

    private func describeStatus() {
        switch viewModel.connectionState {
        case .connected(let session):
            terminal.line(
                "connected to \(gatewayLabel), protocol \(session.protocolVersion.rawValue), server \(session.hello.server.version)"
            )
            terminal.line("scopes \(session.scopes.joined(separator: ", ")), device \(session.deviceId)")
            terminal.line("session \(viewModel.currentSessionKey)")
        case .connecting: terminal.line("connecting…")
        case .reconnecting(let status): terminal.line("offline: \(status.summary())")
        case .disconnected(let reason): terminal.line("offline: \(reason.map { "\($0)" } ?? "not connected")")
        case .failed(let error): terminal.error(error.message, hint: error.nextStep)
        }
    }

    // MARK: - Terminal plumbing

    private func prompt() {
        if terminal.stdoutIsTTY { terminal.write(terminal.styled("› ", .bold)) }
    }

    private func watchConnection() -> Task<Void, Never> {
        let viewModel = self.viewModel
        let terminal = self.terminal
        return Task { @MainActor in
            var last = viewModel.connectionState
            while !Task.isCancelled {
                await waitForChange(timeout: .seconds(1)) { _ = viewModel.connectionState }
                guard !Task.isCancelled else { return }
                let now = viewModel.connectionState
                guard now != last else { continue }
                last = now
                switch now {
                case .connected:
                    let waiting = viewModel.outbox.count { $0.state.needsDelivery }
                    let note =
                        waiting == 0 ? "" : " — delivering \(waiting) queued message(s); /history shows the replies"
                    terminal.line(terminal.styled("● connected\(note)", .green))
                case .connecting: break
                case .reconnecting(let status): terminal.line(terminal.styled("○ \(status.summary())", .yellow))
                case .disconnected(let reason):
                    terminal.line(terminal.styled("○ offline: \(reason.map { "\($0)" } ?? "disconnected")", .yellow))
                case .failed(let error): terminal.error(error.message, hint: error.nextStep)
                }
            }
        }
    }

    /// Ctrl-C stops the running reply; a second one within two seconds (or one while idle) quits.
    private func installInterruptHandler() -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in
            Task { @MainActor in self?.interrupted() }
        }
        source.resume()
        return source
    }

    private func interrupted() {
        let now = ContinuousClock.now
        let recent = lastInterrupt.map { now - $0 < .seconds(2) } ?? false
        lastInterrupt = now
        if viewModel.isRunning, !recent {
            terminal.clearStatus()
            terminal.line(terminal.styled("\n(stopping — press Ctrl-C again to quit)", .dim))
            Task { await viewModel.abort() }
        } else {
            terminal.line("")
            Task { await viewModel.stop() }
            exit(0)
        }
    }
}
