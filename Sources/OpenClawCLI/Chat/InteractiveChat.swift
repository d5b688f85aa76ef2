import Foundation
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The interactive chat: type a message, watch the reply stream; slash commands for the rest.
/// Ctrl-C stops the running reply; a second Ctrl-C, Ctrl-C while idle, or Ctrl-D quits.
///
/// Three things run side by side, so none can block another: the input loop (lines, end of input and
/// signals, merged into one stream on the main actor), a worker that carries out each line in order,
/// and the ``ReplyQueue`` that renders replies. Signals reach it as values (``SignalEvents``): nothing
/// runs in a signal's context.
@MainActor
final class InteractiveChat {
    let chat: ChatSession
    /// For `/reconnect`: the connection decides whether a new socket is needed.
    let connection: GatewayConnection
    let terminal: Terminal
    let gatewayLabel: String
    let replies: ReplyQueue
    /// Where ↑/↓ history is kept between sessions.
    let inputHistory: InputHistory
    /// The models `/model` listed last: `/model N` picks from these.
    var modelChoices: [ModelChoice] = []
    /// The sessions `/sessions` or `/session` listed last: `/session N` picks from these, not from a list
    /// refreshed since (a reconnect reloads the chat session's).
    var sessionChoices: [SessionSummary] = []
    /// Whether input comes from the line editor (stdin and stdout are a terminal).
    private(set) var usesLineEditor = false
    /// The approvals engine when this chat is an approver (`--approvals`), else nil.
    let approvals: ApprovalsClient?
    /// Approval outcomes already printed (a decision typed here prints when answered).
    var printedApprovalOutcomes = RecentIDs()
    /// The agent's questions when this chat answers them (`--questions`), else nil.
    let questions: QuestionsClient?
    /// Question outcomes already printed (an answer typed here prints when the gateway replies).
    var printedQuestionOutcomes = RecentIDs()
    /// Files `/attach` added for the next message.
    var pendingAttachments: [Attachment] = []
    /// A question the next line answers (`!command`: allow it? send its output?).
    var pendingQuestion: ShellEscape.Question?
    /// Whether `!command` may run without asking (answered yes once in this chat).
    var shellAllowed = false
    private var lastInterrupt: ContinuousClock.Instant?
    /// The echo of the message being sent while earlier replies are unfinished: printed over its own
    /// reply, when that reply's turn comes (``ReplyQueue``), so each reply stands under its question.
    private var deferredEcho = DeferredEcho()
    /// Events for the input loop from elsewhere (`/quit`, draining done).
    var loopEvents: AsyncStream<LoopEvent>.Continuation?

    /// What the input loop reacts to.
    enum LoopEvent: Sendable {
        case line(String)
        case endOfInput
        case signal(Int32)
        /// Esc in the line editor: stop the running reply.
        case escape
        case quit
        /// The first connection attempt is over.
        case started
    }

    init(
        chat: ChatSession, connection: GatewayConnection, terminal: Terminal, gatewayLabel: String,
        inputHistory: InputHistory = InputHistory(path: nil),
        approvals: ApprovalsClient? = nil,
        questions: QuestionsClient? = nil
    ) {
        self.chat = chat
        self.approvals = approvals
        self.questions = questions
        self.connection = connection
        self.terminal = terminal
        self.gatewayLabel = gatewayLabel
        self.inputHistory = inputHistory
        self.replies = ReplyQueue(chat: chat, terminal: terminal)
    }

    func run() async -> Int32 {
        // Before anything that can wait: a Ctrl-C while connecting must not kill the process mid-write.
        let signals = SignalEvents([SIGINT, SIGTERM])
        defer { signals.cancel() }
        let (events, sink) = AsyncStream.makeStream(of: LoopEvent.self)
        loopEvents = sink
        let signalRelay = Task {
            for await number in signals.stream { sink.yield(.signal(number)) }
        }
        defer { signalRelay.cancel() }

        var iterator = events.makeAsyncIterator()
        // Following approvals before connecting: no request of the first connection is missed.
        await approvals?.start()
        await questions?.start()
        let startup = Task { await chat.start() }
        if await waitForStartup(startup, events: &iterator) == false {
            await chat.stop()
            return 0
        }
        if case .failed(.pairingRequired(let request)) = chat.connectionState, Self.waitsForPairing {
            if let error = await waitForPairing(request, events: &iterator) {
                await chat.stop()
                return ExitStatus.of(error)
            }
        } else if case .failed(let error) = chat.connectionState {
            terminal.error(error.message, hint: error.nextStep)
            await chat.stop()
            return ExitStatus.of(error)
        }
        // The line editor goes on before anything is printed, so keys typed from now on are read raw.
        let input = TerminalLineInput.events(prompt: terminal.styled("› ", .bold), history: inputHistory)
        usesLineEditor = input != nil
        defer { input?.stop() }
        if usesLineEditor { refreshCompletions(fetchModels: chat.connectionState.session != nil) }
        // Ends with the chat (cancelled below); the status row goes with the input line.
        let statusLine = usesLineEditor ? Task { [weak self] in await self?.keepStatusLine() } : nil
        defer { statusLine?.cancel() }
        let completions = usesLineEditor ? Task { [weak self] in await self?.keepCompletions() } : nil
        defer { completions?.cancel() }
        greet()
        await OneShotConnect.noteSavedDeviceToken(connection, terminal: terminal)

        let inputRelay = Task.detached {
            if let input {
                for await event in input.events {
                    switch event {
                    case .line(let line): sink.yield(.line(line))
                    case .interrupt: sink.yield(.signal(SIGINT))
                    case .escape: sink.yield(.escape)
                    case .endOfInput: sink.yield(.endOfInput)
                    }
                }
            } else {
                for await line in LineReader.lines() { sink.yield(.line(line)) }
            }
            sink.yield(.endOfInput)
        }
        defer { inputRelay.cancel() }
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        // Piped input (a script) is carried out line by line after the replies it asked for, so the
        // output reads in order; on a terminal the person decides when to type.
        let pacedByReplies = isatty(STDIN_FILENO) != 1
        let worker = Task { [weak self] in
            for await line in lines {
                guard let self else { return }
                let input = ChatInput(line: line)
                self.echo(line, input: input)
                if pacedByReplies {
                    if case .local(let command, _) = input, command.answersPendingApproval {
                        await self.waitForRepliesOrApproval()
                    } else {
                        await self.waitForReplies()
                    }
                }
                await self.perform(input)
                // A message that did not go out (an attachment refused) is shown as it was typed.
                if let echo = self.deferredEcho.take() { self.terminal.write(echo) }
                if self.replies.unfinished == 0 { self.prompt() }
            }
        }
        replies.onIdle = { [weak self] in self?.prompt() }
        replies.start()
        // Messages queued in an earlier session went out as this one connected: show their replies too.
        for message in chat.outbox
        where message.sessionKey == chat.currentSessionKey && !message.state.isFailed {
            replies.follow(after: message.id)
        }
        let resizeWatcher = watchWindowSize()
        defer { resizeWatcher?.cancel() }
        let stateWatcher = watchConnection()
        let cardWatchers = await watchCards()
        prompt()

        var drain: Task<Void, Never>?
        loop: while let event = await iterator.next(isolation: #isolation) {
            switch event {
            case .line(let line):
                lineSink.yield(line)
            case .endOfInput where !pacedByReplies:
                // Ctrl-D on a terminal quits now, as Ctrl-C while idle does: waiting for a reply here would
                // hold the person as long as an unresponsive gateway likes. What is left is said below.
                break loop
            case .endOfInput:
                // Piped input ends right after the last line: finish what it asked for first.
                lineSink.finish()
                drain =
                    drain
                    ?? Task { [weak self] in
                        await worker.value
                        await self?.waitForReplies()
                        sink.yield(.quit)
                    }
            case .signal(SIGINT):
                if interrupted() { break loop }
            case .escape:
                if chat.isRunning {
                    terminal.clearStatus()
                    terminal.line(terminal.styled("\n(stopping)", .dim))
                    Task { await chat.abort() }
                }
            case .signal, .quit:
                break loop
            case .started:
                continue
            }
        }
        // Quitting is not news: stop reporting the connection before closing it.
        stateWatcher.cancel()
        await stopCards(cardWatchers)
        drain?.cancel()
        lineSink.finish()
        worker.cancel()
        let repliesLeft = replies.unfinished
        replies.stop()
        await chat.stop()
        sayWhatIsLeftRunning(repliesLeft)
        await sayWhatStaysQueued()
        return 0
    }

    /// Quitting before a reply came: the run goes on at the gateway, where history will show it.
    private func sayWhatIsLeftRunning(_ count: Int) {
        // Only runs the gateway took: a message it never acknowledged is told about with the outbox.
        let acknowledged = chat.outbox.contains { $0.state == .accepted } || chat.runningReply != nil
        guard count > 0, acknowledged else { return }
        terminal.errorLine(
            terminal.styled(
                "Quit before the reply came: the run goes on at the gateway; 'openclaw-chat history' shows its "
                    + "reply.", .yellow))
    }

    /// Quitting with messages not yet delivered is allowed (they stay in this device's outbox), but not
    /// in silence: a script or a person could take the exit for delivery.
    private func sayWhatStaysQueued() async {
        let waiting = await chat.waitingForDelivery()
        // Handed over without an answer (the gateway may have it) or never handed over: told apart.
        let unanswered = waiting.stored.count { $0.state != .queued }
        let kept = waiting.stored.count - unanswered
        let lost = waiting.inMemoryOnly.count
        if kept > 0 {
            let messages = kept == 1 ? "1 message was" : "\(kept) messages were"
            terminal.errorLine(
                terminal.styled(
                    "\(messages) not delivered yet: kept on this device, sent the next time openclaw-chat "
                        + "connects to this gateway.", .yellow))
        }
        if unanswered > 0 {
            let messages = unanswered == 1 ? "1 message" : "\(unanswered) messages"
            terminal.errorLine(
                terminal.styled(
                    "The gateway never acknowledged \(messages); it may not have arrived. Kept on this device and "
                        + "sent again the next time openclaw-chat connects to this gateway (with the same key: "
                        + "never doubled while the gateway remembers it).", .yellow))
        }
        if !pendingAttachments.isEmpty {
            let files =
                pendingAttachments.count == 1
                ? "1 attached file was" : "\(pendingAttachments.count) attached files were"
            terminal.errorLine(terminal.styled("\(files) not sent: no message followed /attach.", .yellow))
        }
        if lost > 0 {
            let messages = lost == 1 ? "1 message was" : "\(lost) messages were"
            terminal.errorLine(
                terminal.styled(
                    "\(messages) not delivered and could not be kept on this device (see the warning above): "
                        + "send again later.",
                    .yellow))
        }
    }

    /// Waits for the first connection attempt, answering signals meanwhile; false when told to quit.
    private func waitForStartup(
        _ startup: Task<Void, Never>, events: inout AsyncStream<LoopEvent>.Iterator
    ) async -> Bool {
        let done = Task { [loopEvents] in
            await startup.value
            loopEvents?.yield(.started)
        }
        defer { done.cancel() }
        while let event = await events.next(isolation: #isolation) {
            switch event {
            case .started: return true
            case .signal, .quit, .endOfInput, .line, .escape:
                startup.cancel()
                return false
            }
        }
        return false
    }

    func requestQuit() {
        loopEvents?.yield(.quit)
    }

    // MARK: - Messages

    func send(_ text: String) async {
        let runId: String
        if pendingAttachments.isEmpty {
            runId = await chat.send(text)
        } else {
            guard let sent = await sendWithAttachments(text) else { return }
            runId = sent
        }
        replies.follow(after: runId, echo: deferredEcho.take())
    }

    /// Shows a submitted line as the transcript keeps it (the line editor erased it when it was
    /// submitted): a message typed while replies are unfinished waits for its own reply's turn, the
    /// rest is echoed at once, on a row of its own even when a progress line or a streaming row is
    /// live (``InputLineDisplay``). Piped input is not echoed: it was never on the screen.
    private func echo(_ line: String, input: ChatInput) {
        guard usesLineEditor else { return }
        let echo = InputLineDisplay.shared.echo(line)
        if case .message = input, replies.unfinished > 0 {
            deferredEcho.set(echo)
        } else {
            terminal.write(echo)
        }
    }

    // MARK: - Terminal plumbing

    /// The prompt: the line editor's input line when it is on (drawn again after output), else `› `.
    func prompt() {
        if usesLineEditor {
            InputLineDisplay.shared.refresh()
        } else if terminal.stdoutIsTTY {
            terminal.write(terminal.styled("› ", .bold))
        }
    }

    /// Reports the connection's changes (``ConnectionNotices`` decides which are worth a line), then
    /// redraws the prompt.
    private func watchConnection() -> Task<Void, Never> {
        let chat = self.chat
        let terminal = self.terminal
        return Task { @MainActor [weak self] in
            var notices = ConnectionNotices(initial: chat.connectionState)
            while !Task.isCancelled {
                await waitForChange(timeout: nil, of: chat, .connection)
                guard !Task.isCancelled else { return }
                let queued = chat.outbox.count { $0.state.needsDelivery }
                guard let notice = notices.notice(for: chat.connectionState, queued: queued) else { continue }
                terminal.clearStatus()
                Self.print(notice, terminal: terminal)
                if self?.replies.unfinished == 0 { self?.prompt() }
            }
        }
    }

    private static func print(_ notice: ConnectionNotices.Notice, terminal: Terminal) {
        switch notice {
        case .connected(let queued):
            let note = queued == 0 ? "" : " — delivering \(queued) queued message(s)"
            terminal.line(terminal.styled("● connected\(note)", .green))
        case .reconnecting(let summary, let first):
            let note = first ? " — messages you type are queued" : ""
            terminal.line(terminal.styled("○ \(TerminalText.escapedLine(summary))\(note)", .yellow))
        case .offline(let reason):
            terminal.line(terminal.styled("○ offline: \(TerminalText.escapedLine(reason))", .yellow))
        case .failed(let error, let needsPerson):
            terminal.error(error.message, hint: error.nextStep)
            if needsPerson {
                terminal.line(
                    terminal.styled(
                        "  Not retrying: fix it, then /reconnect. 'openclaw-chat doctor' checks each step.", .dim))
            }
        }
    }

    /// Ctrl-C: stops the running reply; a second one within two seconds, or one while idle, quits.
    /// Returns whether to quit.
    private func interrupted() -> Bool {
        let now = ContinuousClock.now
        let recent = lastInterrupt.map { now - $0 < .seconds(2) } ?? false
        lastInterrupt = now
        guard chat.isRunning, !recent else {
            terminal.line("")
            return true
        }
        terminal.clearStatus()
        terminal.line(terminal.styled("\n(stopping — press Ctrl-C again to quit)", .dim))
        Task { await chat.abort() }
        return false
    }
}
