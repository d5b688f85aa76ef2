import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a followed run ended, as the terminal reports it.
enum FollowedRunResult: Equatable {
    case completed(text: String)
    case stopped(text: String, reason: String?)
    case failed(message: String)
    /// `chat.send` failed for good (refused, expired, the outbox full).
    case notSent(reason: String)
    /// The run ended while events were lost, and history shows no reply for it.
    case endedWithoutReply
    /// The message was a command the gateway carried out (a stop phrase): no run.
    case handledAsCommand
    /// Whether the gateway has the message cannot be known any more; resending is the person's call.
    case unconfirmed
    /// The connection stayed down past the policy's bound.
    case gaveUp(FollowGiveUp)
    /// The message left on a live connection and the gateway did not acknowledge it within the policy's
    /// ``FollowPolicy/ackWait``: it may or may not have arrived.
    case unacknowledged(after: Duration)
    /// A bound of the person's ran out, with the message at this stage.
    case timedOut(FollowTimeout, FollowStage)
    /// The follower's task was cancelled (the person quit).
    case cancelled
    /// The gateway sent a message larger than this connection accepts (`reason` says how large), and
    /// it was dropped with the socket: the reply may be missing that part, so it is not "completed".
    case incomplete(DisconnectReason)
}

/// Where a run stood when the connection was given up on.
enum FollowGiveUp: Equatable {
    /// The message never left this device.
    case neverSent
    /// The send left but its answer did not arrive: the gateway may or may not have it.
    case unconfirmed
    /// The gateway accepted the message; its reply did not arrive before the connection ended.
    case replyPending(DisconnectReason?)
}

enum FollowTimeout: Equatable {
    case overall(Duration)
    case idle(Duration)
}

/// How far a message had got when following it stopped: what the person can be told for certain.
enum FollowStage: Equatable {
    /// It never left this device (no connection, or waiting behind an earlier message).
    case notSent
    /// It left, and the gateway has not acknowledged it: it may or may not have arrived.
    case unacknowledged
    /// The gateway has it; its run had not ended.
    case running

    /// From the run's progress and its message's outbox state: the transcript counts a message being
    /// sent as running already, so the outbox says whether the gateway has acknowledged it.
    init(_ progress: RunProgress, outboxState: OutboxState?) {
        switch (progress, outboxState) {
        case (.notSent, _), (.waiting(nil), _): self = .notSent
        case (.ended, _), (.endedUnseen, _), (.handledAsCommand, _), (.unconfirmed, _): self = .running
        case (.waiting, .queued?), (.running, .queued?): self = .notSent
        case (.waiting, .sending?), (.waiting, .ambiguous?), (.running, .sending?), (.running, .ambiguous?):
            self = .unacknowledged
        case (.waiting, _), (.running, _): self = .running
        }
    }
}

/// Follows one run of the chat session and renders it as it streams: the reply text delta by delta, an
/// activity line while the agent thinks or runs a tool, finished tool steps as dim lines.
///
/// It ends when the transcript says the run is over for any reason (see ``RunProgress``), when the
/// policy's bounds run out, or when its task is cancelled; it never waits on input.
@MainActor
struct RunFollower {
    let chat: ChatSession
    let terminal: Terminal
    let output: RunOutput
    let policy: FollowPolicy
    /// Told once when the message waits for a connection (the interactive chat says it is queued).
    var onQueued: (@MainActor () -> Void)?

    /// What of the reply has been printed: each update prints only what is new.
    private var printedText = ReplyTextTracker()
    /// The reply's Markdown rendered as it streams, when the output renders it.
    private var markdown: MarkdownStream?
    private var reportedSteps: Set<String> = []
    /// The status line shown now, nil when none: redrawn only when its text changes.
    private var shownStatus: String?
    /// When this device first saw each running step, for the live line's elapsed time (the app's rule).
    private let stepClock = StepClock()
    /// Whether the live line shows a running step's elapsed time, which needs redrawing as it grows.
    private var statusShowsElapsedTime = false
    /// How often a shown elapsed time is redrawn (it has tenths of a second).
    static let elapsedTimeTick = Duration.milliseconds(250)

    init(
        chat: ChatSession,
        terminal: Terminal,
        output: RunOutput,
        policy: FollowPolicy,
        onQueued: (@MainActor () -> Void)? = nil
    ) {
        self.chat = chat
        self.terminal = terminal
        self.output = output
        self.policy = policy
        self.onQueued = onQueued
        self.markdown = output.markdown.map { MarkdownStream(renderer: $0, showsLiveLine: true) }
    }

    /// Renders until the run is over, the policy gives up, or the task is cancelled.
    mutating func follow(runId: String) async -> FollowedRunResult {
        let clock = ContinuousClock()
        let start = clock.now
        var lastProgress = start
        var progressMark = ProgressMark()
        var offlineSince: ContinuousClock.Instant?
        var reconnectNotice = ReconnectNotice()
        var queuedReported = false
        var replyWaitStarted: ContinuousClock.Instant?
        var nextHistoryCheck: ContinuousClock.Instant?
        var historyCheckInterval = Duration.seconds(1)
        // Since when the message has been out on a live connection without an acknowledgement.
        var unacknowledgedSince: ContinuousClock.Instant?

        while true {
            if Task.isCancelled { return finish(.cancelled) }
            // The next moment something must be checked without an event (a bound, a history check, the
            // elapsed time on the live line); nil: only a change of the chat session wakes the follower.
            var wakeAt: ContinuousClock.Instant?
            func wake(at instant: ContinuousClock.Instant) { wakeAt = min(wakeAt ?? instant, instant) }
            if reconnectNotice.observe(generation: chat.connectionState.session?.generation) {
                output.reconnected(runId: runId, terminal: terminal)
            }
            let progress = RunProgress(runId: runId, chat: chat)
            if let reply = progress.reply { render(reply) }
            switch progress {
            case .notSent(let reason): return finish(.notSent(reason: reason))
            case .handledAsCommand: return finish(.handledAsCommand)
            case .unconfirmed: return finish(.unconfirmed)
            case .ended(let outcome, let reply):
                let text = reply?.text ?? ""
                switch outcome {
                case .completed: return finish(.completed(text: text))
                case .stopped(let reason): return finish(.stopped(text: text, reason: reason))
                case .failed(let message, _): return finish(.failed(message: message))
                }
            case .endedUnseen(let reply?):
                return finish(.completed(text: reply.text))
            case .endedUnseen(nil):
                // Events were lost and history has no reply yet: ask history again for a while (a v3 run
                // may still be going, and its next event brings the row back).
                let now = clock.now
                let waitStart = replyWaitStarted ?? now
                replyWaitStarted = waitStart
                if now - waitStart >= policy.replyWait { return finish(.endedWithoutReply) }
                if chat.connectionState.isConnected, nextHistoryCheck.map({ now >= $0 }) ?? true {
                    await chat.refreshHistory()
                    nextHistoryCheck = clock.now + historyCheckInterval
                    historyCheckInterval = min(historyCheckInterval * 2, .seconds(8))
                    continue
                }
                wake(at: waitStart + policy.replyWait)
                // Offline, the reconnect itself wakes the follower (a past check time would spin).
                if chat.connectionState.isConnected, let next = nextHistoryCheck { wake(at: next) }
            case .waiting, .running:
                replyWaitStarted = nil
            }

            let now = clock.now
            if chat.connectionState.isConnected {
                offlineSince = nil
            } else {
                // A reply frame may have been the one dropped: never shown as whole, whatever comes next.
                if let reason = Self.disconnectReason(chat.connectionState), case .inboundTooLarge = reason {
                    return finish(.incomplete(reason))
                }
                let since = offlineSince ?? now
                offlineSince = since
                if case .waiting = progress, !queuedReported {
                    queuedReported = true
                    clearStatus()
                    onQueued?()
                }
                if let bound = policy.offlineBound {
                    if Self.exhausted(bound, state: chat.connectionState, offlineFor: now - since) {
                        return finish(.gaveUp(giveUp(runId: runId)))
                    }
                    wake(at: since + bound.duration)
                }
            }

            if progressMark.update(progress: progress, connected: chat.connectionState.isConnected) {
                lastProgress = now
            }
            let stage = FollowStage(progress, outboxState: chat.outbox.first { $0.id == runId }?.state)
            if stage == .unacknowledged, chat.connectionState.isConnected {
                let since = unacknowledgedSince ?? now
                unacknowledgedSince = since
                if let limit = policy.ackWait {
                    if now - since >= limit { return finish(.unacknowledged(after: limit)) }
                    wake(at: since + limit)
                }
            } else {
                unacknowledgedSince = nil
            }
            if let limit = policy.overallTimeout {
                if now - start >= limit { return finish(.timedOut(.overall(limit), stage)) }
                wake(at: start + limit)
            }
            if let limit = policy.idleTimeout {
                if now - lastProgress >= limit { return finish(.timedOut(.idle(limit), stage)) }
                wake(at: lastProgress + limit)
            }
            if statusShowsElapsedTime { wake(at: now + Self.elapsedTimeTick) }

            // At most a day at a time: a bound of years must not reach the clock as one sleep.
            let timeout = wakeAt.map { min(max($0 - clock.now, .milliseconds(1)), .seconds(86_400)) }
            await waitForChange(timeout: timeout, of: chat, [.transcript, .outbox, .connection])
        }
    }

    private mutating func finish(_ result: FollowedRunResult) -> FollowedRunResult {
        clearStatus()
        finishLine()
        return result
    }

    /// Whether a one-shot command has waited long enough for the connection to come back.
    static func exhausted(_ bound: FollowPolicy.OfflineBound, state: ConnectionState, offlineFor: Duration) -> Bool {
        switch state {
        case .connected: return false
        case .disconnected, .failed: return true  // nothing will reconnect
        case .reconnecting(let status): return status.attempt > bound.attempts || offlineFor >= bound.duration
        case .connecting: return offlineFor >= bound.duration
        }
    }

    private func giveUp(runId: String) -> FollowGiveUp {
        switch chat.outbox.first(where: { $0.id == runId })?.state {
        case .queued: return .neverSent
        case .sending, .ambiguous, .unconfirmed: return .unconfirmed
        case .accepted, .failed, nil: return .replyPending(Self.disconnectReason(chat.connectionState))
        }
    }

    static func disconnectReason(_ state: ConnectionState) -> DisconnectReason? {
        switch state {
        case .disconnected(let reason): return reason
        case .failed(.connectionLost(let reason)): return reason
        case .reconnecting(let status):
            if case .disconnected(let reason) = status.cause { return reason }
            return nil
        case .failed, .connected, .connecting: return nil
        }
    }

    // MARK: - Rendering

    private mutating func render(_ reply: TranscriptEntry) {
        var suspendedLive = false
        for step in reply.activity where step.status != .running && !reportedSteps.contains(step.id) {
            reportedSteps.insert(step.id)
            if !suspendedLive, var stream = markdown {
                terminal.write(stream.suspendLiveLine())
                markdown = stream
                suspendedLive = true
            }
            output.activityFinished(step, terminal: terminal, clearStatus: { clearStatus() })
        }
        let hadPrinted = printedText.hasPrinted
        switch printedText.update(reply) {
        case .append(let chunk)?:
            clearStatus()
            write(chunk, reply: reply)
        case .rewrite(let full)?:
            clearStatus()
            if var stream = markdown {
                terminal.write(stream.finish())
                markdown = MarkdownStream(renderer: stream.renderer, showsLiveLine: true)
            }
            if hadPrinted { output.rewriteMarker(terminal: terminal) }
            write(full, reply: reply)
        case nil:
            if suspendedLive, var stream = markdown {
                terminal.write(stream.resumeLiveLine())
                markdown = stream
            }
        }
        statusShowsElapsedTime = false
        if !printedText.hasPrinted, let live = LiveActivity(reply) {
            let elapsedMs = live.stepId.map { Int(Date().timeIntervalSince(stepClock.start(of: $0)) * 1000) }
            showStatus(live.line(elapsedMs: elapsedMs))
            statusShowsElapsedTime = elapsedMs != nil && output.showsStatus
        }
    }

    /// The reply's next piece: rendered when the output renders Markdown, else as it came.
    private mutating func write(_ chunk: String, reply: TranscriptEntry) {
        guard var stream = markdown else {
            output.text(chunk, runId: reply.runId ?? reply.id, terminal: terminal)
            return
        }
        if terminal.stdoutIsTTY { stream.resize(to: MarkdownOutput.width(environment: ProcessEnvironment.current)) }
        terminal.write(stream.append(chunk))
        markdown = stream
    }

    private mutating func finishLine() {
        if var stream = markdown {
            terminal.write(stream.finish())
            markdown = stream
            return
        }
        if printedText.endsMidLine { output.endOfText(terminal: terminal) }
    }

    private mutating func showStatus(_ text: String) {
        guard output.showsStatus, text != shownStatus else { return }
        terminal.status(text)
        shownStatus = text
    }

    private mutating func clearStatus() {
        guard shownStatus != nil else { return }
        terminal.clearStatus()
        shownStatus = nil
    }

}

/// What counts as progress for the idle timeout: the reply's text, its activity, the run's stage, and
/// the connection coming and going.
private struct ProgressMark {
    private var last: [Int] = []

    /// Records the current state; true when it differs from the last one.
    mutating func update(progress: RunProgress, connected: Bool) -> Bool {
        let reply = progress.reply
        let stage: Int =
            switch progress {
            case .notSent, .handledAsCommand, .unconfirmed: 0
            case .waiting: 1
            case .running: 2
            case .ended: 3
            case .endedUnseen: 4
            }
        let current = [
            stage, connected ? 1 : 0, reply?.textUTF8Count ?? -1, reply?.textRevision ?? -1,
            reply?.activity.count ?? -1, reply?.activity.filter { $0.status == .running }.count ?? -1,
            reply?.progressPhase?.hashValue ?? 0,
        ]
        defer { last = current }
        return current != last
    }
}
