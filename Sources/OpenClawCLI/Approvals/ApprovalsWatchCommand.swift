import ArgumentParser
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `openclaw-chat approvals watch`: a dedicated approver. Connects with the `exec-approvals` cap and the
/// `operator.approvals` scope, prints each request as it arrives and each outcome, and reads decisions
/// as lines on stdin. Ends with status 0 on Ctrl-C or at the end of input; a connection that cannot be
/// made, or that the gateway later refuses for good (another token, a changed certificate), ends with the
/// usual exit codes (3 connection, 4 auth or permission, 5 pairing) unless `--keep-trying`.
struct ApprovalsWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Approve or deny the agent's commands as they are requested.",
        discussion: """
            Reads lines on stdin: allow ID, always ID, deny ID (an ID may be shortened to a unique \
            prefix; a bare allow or deny applies to the only pending request), show ID, list.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "One JSON object per line: each request and each outcome.") var json = false
    @Flag(help: "When the gateway refuses this approver for a reason only you can fix, say so and keep retrying.")
    var keepTrying = false

    /// What the watch loop reacts to, merged into one stream.
    enum Event: Sendable {
        case line(String)
        case endOfInput
        case signal
        case update(ApprovalUpdate)
        case failed(GatewayError)
    }

    func run() async throws {
        let terminal = Terminal()
        let signals = SignalEvents([SIGINT, SIGTERM])
        defer { signals.cancel() }
        guard let target = try resolveTarget(terminal) else {
            throw report(CLIError.noGatewayConfigured, terminal: terminal)
        }
        let connection = global.makeConnection(
            url: target.url, credential: target.credential, terminal: terminal, reconnect: .standard,
            configure: { $0.enableApprovals(required: true) })
        let approvals = ApprovalsClient(connection: connection)
        await approvals.start()
        do {
            try await connection.connect()
        } catch {
            await approvals.stop()
            throw report(error, terminal: terminal)
        }
        terminal.errorLine(
            terminal.styled(
                "Watching for approval requests on \(TerminalText.escapedLine(target.url.description)) — \(WatchInput.usage); Ctrl-C stops.",
                .dim))

        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let updates = await approvals.updates()
        let lasting = LastingConnection(connection: connection, keepTrying: keepTrying)
        // Unstructured relays into one stream, each ends with what it reads; cancelled when the watch ends (the
        // stdin reader thread stays blocked in its read until the process exits).
        let relays = [
            Task {
                if let failure = await lasting.firstUnrecoverableFailure(terminal: terminal) {
                    sink.yield(.failed(failure))
                }
            },
            Task { for await update in updates { sink.yield(.update(update)) } },
            Task { for await _ in signals.stream { sink.yield(.signal) } },
            Task.detached {
                for await line in LineReader.lines() { sink.yield(.line(line)) }
                sink.yield(.endOfInput)
            },
        ]
        defer { for relay in relays { relay.cancel() } }
        var printer = WatchPrinter(json: json, terminal: terminal)
        var failure: GatewayError?
        loop: for await event in events {
            switch event {
            case .update(let update): printer.print(update, pending: await approvals.queue)
            case .line(let line):
                let queue = await approvals.queue
                switch WatchInput(line: line) {
                case .empty: break
                case .help: terminal.errorLine(WatchInput.usage)
                case .unknown(let word): printer.unknown(word)
                case .list:
                    if queue.pending.isEmpty { terminal.errorLine("no pending approvals") }
                    for approval in queue.pending { printer.request(approval, queue: queue) }
                case .show(let reference):
                    switch queue.match(reference) {
                    case .success(let approval): printer.request(approval, queue: queue, full: true)
                    case .failure(let error): printer.error(error)
                    }
                case .decide(let decision, let reference):
                    do {
                        let closed = try await approvals.decide(reference, decision)
                        printer.outcome(closed)
                    } catch {
                        printer.error(error)
                    }
                }
            case .endOfInput, .signal:
                break loop
            case .failed(let error):
                failure = error
                break loop
            }
        }
        await approvals.stop()
        await connection.disconnect()
        if let failure { throw report(failure, terminal: terminal) }
    }

    private func resolveTarget(_ terminal: Terminal) throws -> (url: GatewayURL, credential: GatewayCredential)? {
        do {
            return try global.resolveGateway()
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}

/// Prints what `approvals watch` reports, as text or JSON lines; each outcome once.
struct WatchPrinter {
    let json: Bool
    let terminal: Terminal
    /// Outcomes already printed (our own decisions print when answered, before their update arrives).
    private var printed: Set<String> = []

    init(json: Bool, terminal: Terminal) {
        self.json = json
        self.terminal = terminal
    }

    mutating func print(_ update: ApprovalUpdate, pending queue: ApprovalQueue) {
        switch update {
        case .requested(let approval): request(approval, queue: queue)
        case .closed(let closed): outcome(closed)
        case .undelivered(let approval, let sent):
            if json {
                terminal.line(JSONSerializer.string(ApprovalText.jsonUndelivered(approval, sent: sent)))
            } else {
                terminal.line(ApprovalText.undelivered(approval, sent: sent, shortId: queue.shortId(approval.id)))
                request(approval, queue: queue)
            }
        case .availability(let availability):
            switch availability {
            case .missingScope, .scopeRefused: terminal.error(availability.message, hint: availability.nextStep)
            case .off, .waiting, .active: break
            }
        }
    }

    func request(_ approval: PendingApproval, queue: ApprovalQueue, full: Bool = false) {
        if json {
            terminal.line(JSONSerializer.string(ApprovalText.json(approval, now: .now)))
            return
        }
        let lines = ApprovalText.card(
            approval, shortId: queue.shortId(approval.id), now: .now, full: full,
            commands: WatchInput.word(for:), terminal: terminal)
        terminal.line(lines.joined(separator: "\n"))
    }

    mutating func outcome(_ closed: ClosedApproval) {
        guard printed.insert(closed.id).inserted else { return }
        if json {
            terminal.line(JSONSerializer.string(ApprovalText.json(closed)))
        } else {
            terminal.line(ApprovalText.outcome(closed, shortId: String(closed.id.prefix(8)), terminal: terminal))
        }
    }

    /// A line that is not a command.
    func unknown(_ word: String) {
        let message = "Unknown command \"\(CommandDisplay(word).escaped)\"."
        if json {
            terminal.line(
                JSONSerializer.string(["type": "error", "message": .string(message), "hint": .string(WatchInput.usage)])
            )
        } else {
            terminal.error(message, hint: WatchInput.usage)
        }
    }

    mutating func error(_ error: ApprovalError, hint: String? = nil) {
        // A decision that found the request gone closes it: say so once, as its outcome.
        switch error {
        case .expired(let id), .alreadyResolved(let id, _): printed.insert(id)
        default: break
        }
        if json {
            terminal.line(JSONSerializer.string(ApprovalText.json(error)))
        } else {
            terminal.error(error.message, hint: hint ?? error.nextStep)
        }
    }
}
