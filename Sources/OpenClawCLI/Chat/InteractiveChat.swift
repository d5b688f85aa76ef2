import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// The children running (a test hook: none may be left when `run()` returns).
    nonisolated let children = ChildCensus()
    /// Lines to carry out instead of the terminal's (a test's script); read as piped input is.
    var scriptedLines: AsyncStream<String>?

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

        init(_ input: InputEvent) {
            switch input {
            case .line(let line): self = .line(line)
            case .interrupt: self = .signal(SIGINT)
            case .escape: self = .escape
            case .endOfInput: self = .endOfInput
            }
        }
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
        // Every relay, watcher and the worker is a child of this group: however the chat ends, they end
        // before `run()` returns.
        return await withDiscardingTaskGroup { group in
            addChild(to: &group) { for await number in signals.stream { sink.yield(.signal(number)) } }
            let status = await connectAndChat(events: events, sink: sink, group: &group)
            group.cancelAll()
            return status
        }
    }

    /// Adds `work` to the chat's group, counted while it runs (``children``).
    func addChild(to group: inout DiscardingTaskGroup, _ work: @escaping @Sendable () async -> Void) {
        group.addTask(operation: children.counted(work))
    }

    private func connectAndChat(
        events: AsyncStream<LoopEvent>, sink: AsyncStream<LoopEvent>.Continuation, group: inout DiscardingTaskGroup
    ) async -> Int32 {
        var iterator = events.makeAsyncIterator()
        // Following approvals before connecting: no request of the first connection is missed. Each client's
        // `run()` keeps following until the chat ends.
        if let approvals {
            await approvals.start()
            addChild(to: &group) { await approvals.run() }
        }
        if let questions {
            await questions.start()
            addChild(to: &group) { await questions.run() }
        }
        // Unstructured: the input loop below answers signals meanwhile; ends when the first attempt does,
        // cancelled when the person quits before.
        let startup = Task { [chat] in
            // Read before connecting: the messages an earlier session queued, whose replies this one shows.
            // Their delivery may be confirmed (and they leave the outbox) before the greeting.
            await chat.loadStoredState()
            let queuedEarlier = chat.outbox.map(\.id)
            await chat.start()
            return queuedEarlier
        }
        if await waitForStartup(startup, events: &iterator) == false {
            // Quit while connecting: the store's read ends before the store is closed.
            await chat.loadStoredState()
            await chat.stop()
            return 0
        }
        let queuedEarlier = await startup.value
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
        let input =
            scriptedLines == nil
            ? TerminalLineInput.events(prompt: terminal.styled("› ", .bold), history: inputHistory) : nil
        usesLineEditor = input != nil
        defer { input?.stop() }
        if usesLineEditor {
            refreshCompletions(fetchModels: chat.connectionState.session != nil)
            // The status row and Tab's candidates follow the chat while the input line is there.
            addChild(to: &group) { await self.keepStatusLine() }
            addChild(to: &group) { await self.keepCompletions() }
        }
        let repliesToFollow = unfinishedRuns(of: queuedEarlier)
        greet(leavingOutRepliesTo: Set(repliesToFollow))
        await OneShotConnect.noteSavedDeviceToken(connection, terminal: terminal)

        // Off the main actor, and waiting on nothing but input: typing is read while the chat is busy.
        let scriptedLines = self.scriptedLines
        addChild(to: &group) {
            if let input {
                for await event in input.events { sink.yield(LoopEvent(event)) }
            } else {
                for await line in scriptedLines ?? LineReader.lines() { sink.yield(.line(line)) }
            }
            sink.yield(.endOfInput)
        }
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        // Piped input (a script) is carried out line by line after the replies it asked for, so the
        // output reads in order; on a terminal the person decides when to type.
        let pacedByReplies = scriptedLines != nil || isatty(STDIN_FILENO) != 1
        addChild(to: &group) { await self.carryOut(lines, pacedByReplies: pacedByReplies) }
        replies.onIdle = { [weak self] in self?.prompt() }
        addChild(to: &group) { await self.replies.run() }
        // Messages queued in an earlier session went out as this one connected: show their replies too.
        for runId in repliesToFollow { replies.follow(after: runId) }
        if usesLineEditor { addChild(to: &group) { await self.followWindowSize() } }
        addChild(to: &group) { await self.reportConnection() }
        await followCards(in: &group)
        prompt()

        await readInput(&iterator, lines: lineSink, pacedByReplies: pacedByReplies, group: &group)
        // Quitting is not news: no more connection notices, cards or lines carried out from here on.
        group.cancelAll()
        lineSink.finish()
        let repliesLeft = replies.unfinished
        replies.stop()
        await chat.stop()
        sayWhatIsLeftRunning(repliesLeft)
        await sayWhatStaysQueued()
        return 0
    }

    /// The input loop: hands lines to the worker and reacts to the rest; returns when the chat quits.
    private func readInput(
        _ iterator: inout AsyncStream<LoopEvent>.Iterator, lines: AsyncStream<String>.Continuation,
        pacedByReplies: Bool, group: inout DiscardingTaskGroup
    ) async {
        while let event = await iterator.next(isolation: #isolation) {
            switch event {
            case .line(let line):
                lines.yield(line)
            case .endOfInput where !pacedByReplies:
                // Ctrl-D on a terminal quits now, as Ctrl-C while idle does: waiting for a reply here would
                // hold the person as long as an unresponsive gateway likes. What is left is said then.
                return
            case .endOfInput:
                // Piped input ends right after the last line: the worker finishes what it asked for, then
                // quits (``carryOut(_:pacedByReplies:)``).
                lines.finish()
            case .signal(SIGINT):
                if interrupted() { return }
                stopReply(in: &group)
            case .escape:
                guard chat.isRunning else { continue }
                terminal.clearStatus()
                terminal.line(terminal.styled("\n(stopping)", .dim))
                stopReply(in: &group)
            case .signal, .quit:
                return
            case .started:
                continue
            }
        }
    }

    /// Carries out each line in order; when piped input has ended, waits for the replies it asked for
    /// and quits.
    private func carryOut(_ lines: AsyncStream<String>, pacedByReplies: Bool) async {
        for await line in lines {
            let input = ChatInput(line: line)
            echo(line, input: input)
            if pacedByReplies {
                if case .local(let command, _) = input, command.answersPendingApproval {
                    await waitForRepliesOrApproval()
                } else {
                    await waitForReplies()
                }
            }
            await perform(input)
            // A message that did not go out (an attachment refused) is shown as it was typed.
            if let echo = deferredEcho.take() { terminal.write(echo) }
            if replies.unfinished == 0 { prompt() }
        }
        // Ended by the chat quitting (cancelled), or by the end of piped input: then its replies come first.
        guard !Task.isCancelled else { return }
        await waitForReplies()
        loopEvents?.yield(.quit)
    }

    /// Stops the running reply without the input loop waiting for the gateway's answer.
    private func stopReply(in group: inout DiscardingTaskGroup) {
        let chat = self.chat
        addChild(to: &group) { await chat.abort() }
    }

    /// Waits for the first connection attempt, answering signals meanwhile; false when told to quit.
    private func waitForStartup<Value: Sendable>(
        _ startup: Task<Value, Never>, events: inout AsyncStream<LoopEvent>.Iterator
    ) async -> Bool {
        // Unstructured: turns the attempt's end into an event of the loop below; cancelled when it returns.
        let done = Task { [loopEvents] in
            _ = await startup.value
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
    /// redraws the prompt; until cancelled.
    private func reportConnection() async {
        var notices = ConnectionNotices(initial: chat.connectionState)
        while !Task.isCancelled {
            await waitForChange(timeout: nil, of: chat, .connection)
            guard !Task.isCancelled else { return }
            let queued = chat.outbox.count { $0.state.needsDelivery }
            guard let notice = notices.notice(for: chat.connectionState, queued: queued) else { continue }
            terminal.clearStatus()
            Self.print(notice, terminal: terminal)
            if replies.unfinished == 0 { prompt() }
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

    /// Ctrl-C: stops the running reply (the caller does); a second one within two seconds, or one while
    /// idle, quits. Returns whether to quit.
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
        return false
    }
}
