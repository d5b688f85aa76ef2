import OpenClawProtocol

/// Everything that can change a transcript. Times and ids come in with the actions, so applying the
/// same actions always yields the same transcript.
public enum TranscriptAction: Sendable {
    /// The user sent a message. Shown at once as ``TranscriptEntryStatus/sending``. Sending again
    /// with the id of a failed or queued message (a retry, an outbox delivery) sends it in place.
    case send(LocalSend)
    /// The message with this id waits in the outbox: not sent, or to be sent again with the same id.
    case sendQueued(id: String)
    /// `chat.send` answered.
    case sendAcknowledged(ChatSendAck)
    /// `chat.send` failed (error response, timeout, no connection) for the message with this id.
    case sendFailed(id: String, reason: String)
    /// Drop a local message that failed to send, or that still waits in the outbox.
    case discard(id: String)
    /// The message was a stop command: the gateway stopped the session's runs and stored nothing, so
    /// its row goes (history will never show it).
    case sendHandledAsCommand(id: String)
    /// The message's delivery cannot be known any more (see ``TranscriptEntryStatus/unconfirmed``).
    case sendUnconfirmed(id: String)
    /// Where the outbox holds the message now, as its row shows it (``OutboxState/rowStatus(isConnected:)``):
    /// the one way a chat session sets a local row's delivery status, so the row never says other than
    /// the outbox. A row history has confirmed is left alone.
    case delivery(id: String, status: TranscriptEntryStatus)
    /// Stored history from a previous launch, shown before the gateway answers. Ignored once a history
    /// page has been applied: the gateway's word wins.
    case restored([StoredMessage])
    /// A `chat` event: reply text, or the run's end. Repeated, stale and late events are ignored.
    case chatEvent(ChatEvent)
    /// An `agent` event: thinking and tool steps of a run. Never a source of reply text.
    case agentEvent(AgentEvent)
    /// The engine has asked for `chat.history`; triggers from now on need another fetch.
    case historyRequested
    /// A `chat.history` page arrived: reconcile with it.
    case historyLoaded(ChatHistoryPage)
    /// The event stream may have lost events: the transcript needs a history fetch.
    case resyncNeeded(ResyncReason)
}

/// A message the user just sent.
public struct LocalSend: Sendable, Hashable {
    /// The `chat.send` idempotency key: also the row id and the run id of the reply.
    public var id: String
    /// What the user typed.
    public var text: String
    /// Client time of the send, epoch ms.
    public var timestampMs: Int
    /// A send attempt is being made, so the gateway may have the message from now on; false when the
    /// row is only shown (typed offline, waiting in the outbox). Only a message that may have left is
    /// ever matched to a history message by its text.
    public var isAttempt: Bool
    /// What goes with the text, without the bytes.
    public var attachments: [AttachmentSummary]

    /// A send; by default an attempt is being made, with no attachments.
    public init(
        id: String, text: String, timestampMs: Int, isAttempt: Bool = true, attachments: [AttachmentSummary] = []
    ) {
        self.id = id
        self.text = text
        self.timestampMs = timestampMs
        self.isAttempt = isAttempt
        self.attachments = attachments
    }
}

/// Why the event stream can no longer be trusted.
public enum ResyncReason: Sendable, Hashable {
    /// The socket reconnected; events in between are lost.
    case reconnected
    /// Frame `seq` jumped (a dropped v4 append delta corrupts the reply text).
    case sequenceGap
}

/// Why the transcript wants a `chat.history` fetch.
public enum HistoryRefreshReason: Sendable, Hashable {
    /// A run of this session ended: history now holds its stored messages.
    case runEnded(runId: String)
    /// An ack said a run finished earlier without this client seeing its events.
    case runFinishedUnseen(runId: String)
    case resync(ResyncReason)
}

/// What an action did.
public enum TranscriptApplyResult: Sendable, Hashable {
    /// The action was taken into account.
    case applied
    /// The action left the rows as they were, for this reason.
    case ignored(TranscriptIgnoreReason)
}

/// Why an action left the transcript's rows as they were: for logs and tests, not for the person.
public enum TranscriptIgnoreReason: Sendable, Hashable {
    /// The event or page belongs to another session.
    case otherSession
    /// The same event was already applied.
    case duplicate
    /// An event older than one already applied for the run.
    case stale
    /// The run already had its terminal event.
    case runEnded
    /// An event for a run this transcript cannot place (no session key, never seen).
    case unknownRun
    /// No row has that id, or the row is not in a state the action applies to.
    case noSuchEntry
}
