import Foundation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// How a followed run ended, as the terminal reports it.
enum FollowedRunResult: Equatable {
    case completed(text: String)
    case stopped(text: String, reason: String?)
    case failed(message: String)
    /// `chat.send` itself failed (refused, no connection).
    case notSent(reason: String)
    /// The connection ended with the message still in the outbox: `ambiguous` when it may have
    /// reached the gateway (the reply may still come), otherwise it never left.
    case queued(ambiguous: Bool)
    case connectionLost(DisconnectReason?)
}

/// Follows one run of the view model and renders it as it streams: the reply text delta by delta,
/// an activity line while the agent thinks or runs a tool, finished tool steps as dim lines.
@MainActor
struct RunFollower {
    let viewModel: ChatViewModel
    let terminal: Terminal
    let output: RunOutput

    private var printed = ""
    private var printedRevision = 0
    private var reportedSteps: Set<String> = []
    private var statusShown = false

    init(viewModel: ChatViewModel, terminal: Terminal, output: RunOutput) {
        self.viewModel = viewModel
        self.terminal = terminal
        self.output = output
    }

    /// Renders until the run has an outcome. `stopOnDisconnect`: a one-shot command gives up when the
    /// connection ends; the interactive chat waits for reconnects.
    mutating func follow(runId: String, stopOnDisconnect: Bool) async -> FollowedRunResult {
        while true {
            if let user = viewModel.transcript.entry(id: runId), case .failed(let reason) = user.status {
                clearStatus()
                return .notSent(reason: reason)
            }
            let reply = viewModel.messages.last { $0.runId == runId && $0.role == .assistant }
            if let reply { render(reply) }
            if let outcome = viewModel.transcript.outcome(ofRun: runId) {
                clearStatus()
                let text = reply?.text ?? ""
                finishLine()
                switch outcome {
                case .completed: return .completed(text: text)
                case .stopped(let reason): return .stopped(text: text, reason: reason)
                case .failed(let message, _): return .failed(message: message)
                }
            }
            let waiting = viewModel.outbox.first { $0.id == runId }?.state
            if !viewModel.connectionState.isConnected, waiting == .queued || waiting == .ambiguous {
                // Offline: the message waits in the outbox and goes out with the reconnect.
                clearStatus()
                finishLine()
                return .queued(ambiguous: waiting == .ambiguous)
            }
            // A connection that is reconnecting may still deliver the run; one that ended for good
            // (reconnecting off, or paused on an error only the person can fix) will not.
            let connection = Self.connectionEnd(viewModel.connectionState)
            if stopOnDisconnect, connection.isOver {
                clearStatus()
                finishLine()
                // Queued and ambiguous messages returned above; one cut off mid-attempt is still queued.
                return waiting == .sending ? .queued(ambiguous: false) : .connectionLost(connection.reason)
            }
            await waitForChange { [viewModel] in
                _ = viewModel.messages
                _ = viewModel.connectionState
            }
        }
    }

    private mutating func render(_ reply: TranscriptEntry) {
        for step in reply.activity where step.status != .running && !reportedSteps.contains(step.id) {
            reportedSteps.insert(step.id)
            output.activityFinished(step, terminal: terminal, clearStatus: { clearStatus() })
        }
        let count = reply.textUTF8Count
        if reply.textRevision != printedRevision {
            printedRevision = reply.textRevision
            let full = reply.text
            if full.utf8.starts(with: printed.utf8) {
                emit(String(decoding: full.utf8.dropFirst(printed.utf8.count), as: UTF8.self), reply: reply)
            } else {
                // The gateway rewrote the reply (v4 replace): show the new text from the start.
                emitRewrite(full, reply: reply)
            }
        } else if count > printed.utf8.count {
            emit(reply.text(fromUTF8Offset: printed.utf8.count), reply: reply)
        }
        if printed.isEmpty, let running = reply.activity.last(where: { $0.status == .running }) {
            showStatus(Self.describe(running))
        } else if printed.isEmpty, reply.status == .streaming {
            showStatus(reply.progressPhase.map { "\($0.replacingUnderscores)…" } ?? "thinking…")
        }
    }

    private mutating func emit(_ chunk: String, reply: TranscriptEntry) {
        guard !chunk.isEmpty else { return }
        clearStatus()
        printed += chunk
        output.text(chunk, runId: reply.runId ?? reply.id, terminal: terminal)
    }

    private mutating func emitRewrite(_ full: String, reply: TranscriptEntry) {
        clearStatus()
        if !printed.isEmpty { output.rewriteMarker(terminal: terminal) }
        printed = full
        output.text(full, runId: reply.runId ?? reply.id, terminal: terminal)
    }

    private func finishLine() {
        if !printed.isEmpty, !printed.hasSuffix("\n") { output.endOfText(terminal: terminal) }
    }

    private mutating func showStatus(_ text: String) {
        guard output.showsStatus else { return }
        terminal.status(text)
        statusShown = true
    }

    private mutating func clearStatus() {
        guard statusShown else { return }
        terminal.clearStatus()
        statusShown = false
    }

    /// Whether the connection is over for now (not connected, not trying), and why when known.
    static func connectionEnd(_ state: ConnectionState) -> (isOver: Bool, reason: DisconnectReason?) {
        switch state {
        case .disconnected(let reason): return (true, reason)
        case .failed(.connectionLost(let reason)): return (true, reason)
        case .failed: return (true, nil)
        case .connected, .connecting, .reconnecting: return (false, nil)
        }
    }

    static func describe(_ step: ActivityStep) -> String {
        switch step.kind {
        case .thinking: return "thinking…"
        case .tool:
            return "running \(step.summary(limit: 60))\(step.durationLabel)"
        }
    }
}

extension String {
    fileprivate var replacingUnderscores: String { replacingOccurrences(of: "_", with: " ") }
}
