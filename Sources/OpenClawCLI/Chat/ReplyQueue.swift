import Observation
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

/// Follows the interactive chat's runs one after another, in the order they were sent, in its `run()`
/// (a child of the chat's task): reading input never waits for a reply, and a reply to a message queued offline is printed
/// when it arrives.
///
/// Observable, so that a script's next line waits for ``unfinished`` to reach zero without polling.
@MainActor
@Observable
final class ReplyQueue {
    private let chat: ChatSession
    private let terminal: Terminal
    private let continuation: AsyncStream<(runId: String, echo: String?)>.Continuation
    private let runIds: AsyncStream<(runId: String, echo: String?)>
    /// Runs handed over and not yet finished (the one followed now included).
    private(set) var unfinished = 0
    /// Called after each run's ending is printed, when no other run waits (the chat redraws its prompt).
    var onIdle: (@MainActor () -> Void)?
    /// Whether thinking steps print their reasoning (`/think show`).
    var showsThinking = false

    init(chat: ChatSession, terminal: Terminal) {
        self.chat = chat
        self.terminal = terminal
        (runIds, continuation) = AsyncStream.makeStream(of: (runId: String, echo: String?).self)
    }

    /// Follows the runs handed over, until cancelled or stopped.
    func run() async {
        for await (runId, echo) in runIds {
            guard !Task.isCancelled else { return }
            if let echo { terminal.write(echo) }
            await follow(runId)
            unfinished -= 1
            if unfinished == 0 { onIdle?() }
        }
    }

    /// Follows `runId` after the runs before it; `echo` (the message as typed, when it was typed while
    /// earlier replies were unfinished) is printed first, so the reply stands under its question.
    func follow(after runId: String, echo: String? = nil) {
        unfinished += 1
        continuation.yield((runId, echo))
    }

    /// No run is handed over from now on; `run()` ends (its caller cancels the one followed now).
    func stop() {
        continuation.finish()
    }

    /// The model, thinking level and tokens of the reply (``ReplyFooter``), when the gateway said any.
    /// The `final` event carries the reply's text only; its model and usage come with the history read
    /// that follows it. That read is awaited to its end, however long a loaded machine takes (a clock alone
    /// lost footers under load); then a short wait covers a read started by another caller. A gateway that
    /// never says leaves the reply without a footer.
    private func printFooter(runId: String) async {
        await chat.finishHistoryFetch()
        let deadline = ContinuousClock.now + Self.footerWait
        while true {
            let reply = RunProgress(runId: runId, chat: chat).reply
            if let reply,
                let footer = ReplyFooter(
                    reply: reply, thinkingLevel: chat.thinkingLevel?.rawValue ?? chat.transcript.thinkingLevel)
            {
                terminal.line(terminal.styled("  " + TerminalText.escapedLine(footer.text), .dim))
                return
            }
            // History has the message and says nothing worth a footer (a gateway-written answer, a gateway
            // that keeps no usage): the prompt need not wait.
            if reply?.source == .history { return }
            let left = deadline - ContinuousClock.now
            guard left > .zero, chat.connectionState.isConnected, !Task.isCancelled else { return }
            await waitForChange(timeout: left, of: chat, .transcript)
        }
    }

    /// How long a reply's footer waits at most, after the history read the `final` started, for a page
    /// that has the reply. The wait ends as soon as history has it, so this bounds only a silent gateway.
    static let footerWait = Duration.seconds(5)

    private func follow(_ runId: String) async {
        let terminal = self.terminal
        var follower = RunFollower(
            chat: chat,
            terminal: terminal,
            output: RunOutput(
                format: .text, showsActivity: true, showsThinking: showsThinking,
                markdown: MarkdownOutput.renderer(for: terminal)),
            policy: .interactive,
            onQueued: {
                terminal.line(
                    terminal.styled("◷ queued: it will be sent when the connection is back (/reconnect).", .yellow))
            }
        )
        switch await follower.follow(runId: runId) {
        case .completed(let text) where text.isEmpty:
            // A silent run (the agent chose not to answer) would otherwise look like a reply still coming.
            terminal.line(terminal.styled(RunOutput.silentRunNote, .dim))
        case .completed:
            await printFooter(runId: runId)
        case .cancelled, .handledAsCommand: break
        case .unconfirmed:
            terminal.error(
                "Maybe not delivered: the gateway no longer remembers this message and its history does not show it.",
                hint: "/retry sends it again (it may then run twice), or leave it.")
        case .stopped: terminal.line(terminal.styled("■ stopped", .yellow))
        case .failed(let message): terminal.error("The agent's run failed: \(message)", hint: nil)
        case .notSent(let reason): terminal.error("Not sent: \(reason)", hint: "Use /retry to send it again.")
        case .endedWithoutReply:
            terminal.line(
                terminal.styled("(the run ended while the connection was down; history shows no reply)", .dim))
        case .incomplete(let reason):
            terminal.error(
                "\(reason.description): this reply may be missing a part.",
                hint: "/history shows it as the gateway stored it.")
        case .gaveUp, .timedOut, .unacknowledged:
            // The interactive policy has no bounds; kept for completeness of the switch.
            terminal.line(terminal.styled("(stopped following the reply; /history shows it when it comes)", .dim))
        }
    }
}
