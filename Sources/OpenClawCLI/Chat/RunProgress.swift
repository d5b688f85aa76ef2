import OpenClawChat
import OpenClawProtocol

/// Where one run of the user's stands, read from the transcript and the outbox alone.
///
/// Following a run ends when the transcript says it is over *for any reason* — a terminal event, or a
/// run that ended unseen while the client was offline (the reducer presumes it over after the resync
/// and history holds whatever reply it produced). Waiting for a terminal event only would wait forever
/// for a run that ended during a dropped connection.
enum RunProgress: Equatable {
    /// `chat.send` failed for good (refused, expired, over the outbox limit).
    case notSent(reason: String)
    /// In the outbox, not yet accepted by the gateway.
    case waiting(OutboxState?)
    /// The gateway took it as a command (a stop phrase): no run, nothing to follow.
    case handledAsCommand
    /// Its delivery cannot be known any more (past the gateway's duplicate window): the person decides.
    case unconfirmed
    /// The run may still produce text; its live reply row, once there is one.
    case running(reply: TranscriptEntry?)
    /// A terminal event said how it ended.
    case ended(RunOutcome, reply: TranscriptEntry?)
    /// Over without a terminal event seen here (it ended while events were lost); the reply, if any, is
    /// what history holds after the user's message.
    case endedUnseen(reply: TranscriptEntry?)

    @MainActor
    init(runId: String, chat: ChatSession) {
        self.init(runId: runId, transcript: chat.transcript, outbox: chat.outbox)
    }

    init(runId: String, transcript: Transcript, outbox: [OutboxMessage]) {
        let liveReply = transcript.entries.last { $0.runId == runId && $0.role == .assistant }
        let waiting = outbox.first { $0.id == runId }?.state
        if let outcome = transcript.outcome(ofRun: runId) {
            // The kept reply last: a page without the run drops its rows (a burst, a gateway storing nothing).
            let reply =
                liveReply ?? Self.historyReply(after: runId, in: transcript) ?? transcript.endedReply(ofRun: runId)
            self = .ended(outcome, reply: reply)
            return
        }
        if transcript.sendsHandledAsCommand.contains(runId) {
            self = .handledAsCommand
            return
        }
        if waiting == .unconfirmed || transcript.entry(id: runId)?.status == .unconfirmed {
            self = .unconfirmed
            return
        }
        if let user = transcript.entry(id: runId), case .failed(let reason) = user.status {
            self = .notSent(reason: reason)
            return
        }
        if case .failed(let reason) = waiting {
            self = .notSent(reason: reason)
            return
        }
        if transcript.isActive(runId: runId) {
            self = .running(reply: liveReply)
            return
        }
        if let waiting, waiting.needsDelivery {
            self = .waiting(waiting)
            return
        }
        if let user = transcript.entry(id: runId), user.status == .queued || user.status == .sending {
            self = .waiting(waiting)
            return
        }
        self = .endedUnseen(reply: liveReply ?? Self.historyReply(after: runId, in: transcript))
    }

    /// The reply history holds for the user's message `runId`: the last assistant message with text in
    /// the turn after it (tool results and empty tool-call messages come before the answer).
    static func historyReply(after runId: String, in transcript: Transcript) -> TranscriptEntry? {
        let entries = transcript.entries
        guard let start = entries.firstIndex(where: { $0.id == runId }) else { return nil }
        var reply: TranscriptEntry?
        for entry in entries[(start + 1)...] {
            if entry.role == .user { break }
            if entry.role == .assistant, entry.textUTF8Count > 0 { reply = entry }
        }
        return reply
    }

    /// The row whose text is the reply so far.
    var reply: TranscriptEntry? {
        switch self {
        case .running(let reply), .ended(_, let reply), .endedUnseen(let reply): reply
        case .notSent, .waiting, .handledAsCommand, .unconfirmed: nil
        }
    }
}
