import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What each line typed in the interactive chat does.
extension InteractiveChat {
    func perform(_ input: ChatInput) async {
        if let question = pendingQuestion {
            pendingQuestion = nil
            await answer(question, with: input)
            return
        }
        switch input {
        case .empty: break
        case .message(let text): await send(text)
        case .shell(let command): await runShell(command)
        case .local(let command, let argument):
            await perform(command, argument: argument)
            if usesLineEditor, command == .sessions || command == .session || command == .model {
                refreshCompletions()
            }
        }
    }

    private func perform(_ command: LocalCommand, argument: String) async {
        switch command {
        case .help:
            await waitForGatewayCommands()
            let listed = LocalCommand.allCases.filter {
                (approvals != nil || !$0.isApprovalCommand) && (questions != nil || !$0.isQuestionCommand)
            }
            for case (let usage, let text)? in listed.map(\.help) {
                terminal.line("  \(terminal.styled(HelpRow.usageColumn(usage), .bold))\(text)")
            }
            listGatewayCommands()
            if approvals == nil {
                terminal.line(
                    terminal.styled(
                        "  Started with --approvals, this chat also approves the agent's commands (/approve …).",
                        .dim))
            }
            if questions == nil {
                terminal.line(
                    terminal.styled(
                        "  Started with --questions, it answers the agent's questions too (/answer …).", .dim))
            }
            terminal.line(
                terminal.styled(
                    "  Any other /command (/compact, /stop, /usage …) goes to the gateway; //text sends /text.",
                    .dim))
            terminal.line(
                terminal.styled(
                    "  !command runs a shell command here (asks first) and offers its output to the agent; "
                        + "!!text sends !text.", .dim))
            terminal.line(
                terminal.styled(
                    "  Keys: Tab completes · ↑/↓ history · Ctrl-R searches it · Ctrl-J new line · "
                        + "Ctrl-W/Alt-D delete a word · Esc stops a reply · Ctrl-C clears the line", .dim))
        case .quit, .exit: requestQuit()
        case .attach: await attach(argument)
        case .detach: detach()
        case .queue: await chooseQueueMode(argument)
        case .steer: await steer(argument)
        case .usage: await showUsage(argument)
        case .model: await chooseModel(argument)
        case .edit:
            // On a terminal the line editor opens $EDITOR before the line gets here.
            terminal.line("/edit needs a terminal: input is piped, so there is no editor to open")
        case .approve: await decideApproval(.allowOnce, reference: argument, typed: "/approve")
        case .approveAlways: await decideApproval(.allowAlways, reference: argument, typed: "/approve-always")
        case .deny: await decideApproval(.deny, reference: argument, typed: "/deny")
        case .approvals: await showApprovals(argument)
        case .answer: await answerQuestion(argument)
        case .skip: await skipQuestion(argument)
        case .questions: await showQuestions()
        case .abort: await chat.abort()
        case .think: think(argument)
        case .tools: showTools()
        case .new: await resetSession(.new, then: argument)
        case .reset: await resetSession(.reset, then: argument)
        case .sessions: await listSessions()
        case .session: await chooseSession(argument)
        case .history:
            let count = Int(argument) ?? 20
            await chat.refreshHistoryAndWait()
            rowPrinter.print(Array(MessageRow.rows(for: chat.messages).suffix(max(1, count))))
        case .expand: await expand(argument)
        case .save: await save(argument)
        case .view: await view(argument)
        case .status:
            describeStatus()
        case .reconnect:
            await connection.reconnectNow()
            describeStatus()
        case .retry:
            if let failed = chat.messages.last(where: {
                $0.role == .user && ($0.status.isFailed || $0.status == .unconfirmed)
            }) {
                await chat.retry(messageID: failed.id)
                replies.follow(after: failed.id)
            } else {
                terminal.line("nothing to retry")
            }
        case .search:
            guard !argument.isEmpty else {
                terminal.line("usage: /search WORDS")
                return
            }
            SearchOutput.print(await chat.search(argument), terminal: terminal, showGateway: false)
        }
    }

    /// `/think show|hide` shows or hides the reasoning under each thinking step (from the next reply on,
    /// and in `/history`); any other word is the thinking level sent with the next messages.
    private func think(_ argument: String) {
        switch argument.lowercased() {
        case "show", "hide":
            replies.showsThinking = argument.lowercased() == "show"
            terminal.line(
                replies.showsThinking
                    ? "the agent's reasoning is shown under each thinking step" : "the agent's reasoning is hidden")
        case "":
            let shown = replies.showsThinking ? "shown" : "hidden"
            terminal.line("thinking level: \(thinkingLevelShown); reasoning \(shown)")
        case "default":
            chat.thinkingLevel = nil
            terminal.line("thinking level: \(thinkingLevelShown)")
        default:
            guard let level = ThinkingLevel(parsing: argument) else {
                terminal.error(
                    "\(TerminalText.escapedLine(argument)) is not a thinking level",
                    hint: "/think \(ThinkingLevel.allCases.map(\.rawValue).joined(separator: "|"))|default|show|hide")
                return
            }
            chat.thinkingLevel = level
            terminal.line("thinking level: \(thinkingLevelShown)")
        }
    }

    /// `/tools`: the tool steps of the latest reply that has any, each with its arguments and the start of
    /// its result (``ToolCard``).
    private func showTools() {
        let rows = MessageRow.rows(for: chat.messages)
        guard let row = rows.last(where: { $0.steps.contains { $0.card != nil } }) else {
            terminal.line("no tool steps in this session's recent replies")
            return
        }
        for step in row.steps where step.card != nil {
            for line in StepLines.card(step, terminal: terminal) { terminal.line(line) }
        }
    }

    /// `/new`, `/reset`: `sessions.reset` when this connection may call it, else the gateway's own command,
    /// whose reply is followed like any other.
    private func resetSession(_ command: SessionResetCommand, then text: String) async {
        switch await chat.resetSession(command, then: text) {
        case .reset:
            terminal.line(terminal.styled("— \(currentSessionName) starts afresh —", .dim))
        case .resetThenSent(let runId):
            terminal.line(terminal.styled("— \(currentSessionName) starts afresh —", .dim))
            replies.follow(after: runId)
        case .sentAsCommand(let runId):
            replies.follow(after: runId)
        case .failed(.notConnected):
            terminal.line(
                "\(command.commandText) needs the gateway: it is not sent while offline (queued, it would clear "
                    + "the session whenever it is next delivered). /reconnect, then try again.")
        case .failed(let error):
            terminal.error(error.message, hint: error.nextStep)
        }
    }

    /// The current session as every line names it (``SessionName``).
    /// The level as the history last reported it: the gateway's word, escaped.
    private var thinkingLevelShown: String {
        chat.thinkingLevel?.rawValue ?? "session default"
    }

    var currentSessionName: String {
        SessionName.display(chat.currentSessionKey, keys: chat.transcript.sessionKeys)
    }

    private func describeStatus() {
        switch chat.connectionState {
        case .connected(let session):
            let server = TerminalText.escapedLine(session.hello.server.version)
            terminal.line(
                "connected to \(gatewayLabel), protocol \(session.protocolVersion.rawValue), server \(server)")
            let scopes = TerminalText.escapedLine(session.scopes.joined(separator: ", "))
            terminal.line("scopes \(scopes), device \(session.deviceId)")
            terminal.line("session \(currentSessionName)")
        case .connecting: terminal.line("connecting…")
        case .reconnecting(let status): terminal.line("offline: \(TerminalText.escapedLine(status.summary()))")
        case .disconnected(let reason):
            terminal.line("offline: \(TerminalText.escapedLine(reason.map { "\($0)" } ?? "not connected"))")
        case .failed(let error): terminal.error(error.message, hint: error.nextStep)
        }
    }
}
