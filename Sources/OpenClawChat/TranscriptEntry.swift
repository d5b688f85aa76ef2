import OpenClawProtocol

/// One row of the transcript: a message of the session, whether the gateway has stored it yet or not.
///
/// The id never changes for the life of the row: an optimistic user message keeps its idempotency
/// key, and a streamed reply keeps its id, when history later confirms them.
public struct TranscriptEntry: Sendable, Hashable, Identifiable {
    /// The row's id, unique in the transcript: a local message's idempotency key, `reply:<run id>` for a
    /// streamed reply, or the history key of a message first seen in history.
    public let id: String
    /// Who wrote it: the user, the assistant, a tool result …
    public internal(set) var role: ChatRole
    /// Where the row stands: queued, sending, streaming, complete, failed …
    public internal(set) var status: TranscriptEntryStatus
    /// Whether the row rests on the gateway's history, on a local send, or on live events.
    public internal(set) var source: TranscriptEntrySource
    /// The run that produced a reply, or that a local user message started.
    public internal(set) var runId: String?
    /// Epoch ms, from the gateway's message, or the client's send time for a local message.
    public internal(set) var timestampMs: Int?
    /// The gateway's message behind this row: the history message, or the message of the terminal
    /// event. Nil while the row is local or still streaming.
    public internal(set) var message: ChatMessage?
    /// Thinking and tool steps that belong to this row.
    public internal(set) var activity: [ActivityStep]
    /// v4 `status` phase of a reply that has no text yet (`preparing_context` ...).
    public internal(set) var progressPhase: String?
    /// Why a reply's run failed, when the gateway classified it.
    public internal(set) var errorKind: ChatErrorKind?
    /// Why the model stopped (`stop`, `length`, `aborted` …), from the terminal event or the history
    /// message.
    public internal(set) var stopReason: String?
    /// The stable key of the history message this row stands for, once history has confirmed it.
    var historyKey: String?
    var body: TextBuffer
    /// A local message a send attempt was made for: only such a row may be matched to a history
    /// message by its text (a message that never left cannot be on the gateway, however alike another
    /// client's message looks).
    var mayHaveLeft = false
    /// The attachments this device sent with the message: shown until history describes them, and
    /// then naming what history leaves unnamed.
    public internal(set) var localAttachments: [AttachmentSummary] = []

    init(
        id: String,
        role: ChatRole,
        status: TranscriptEntryStatus,
        source: TranscriptEntrySource,
        runId: String? = nil,
        timestampMs: Int? = nil,
        text: String = ""
    ) {
        self.id = id
        self.role = role
        self.status = status
        self.source = source
        self.runId = runId
        self.timestampMs = timestampMs
        self.message = nil
        self.activity = []
        self.body = TextBuffer(text)
    }

    /// The message's images and files, typed: from the gateway's message when there is one, else the
    /// ones sent from here.
    public var attachments: [AttachmentRow] {
        guard let message else { return localAttachments.map(AttachmentRow.init(local:)) }
        return AttachmentRow.rows(of: message, local: localAttachments)
    }

    /// The visible text (for a streaming reply, the text so far). Materialised on each read.
    public var text: String { body.text }

    /// UTF-8 length of ``text`` without materialising it.
    public var textUTF8Count: Int { body.utf8Count }

    /// Increases when the text is replaced rather than extended (a v4 `replace` delta, a final that
    /// differs from the streamed text): whatever was printed of the old text is no longer a prefix.
    public var textRevision: Int { body.revision }

    /// The text after its first `offset` UTF-8 bytes, costing only the length of the result, so a
    /// terminal can print a streaming reply delta by delta.
    public func text(fromUTF8Offset offset: Int) -> String { body.suffix(fromUTF8Offset: offset) }
}

/// Where a row stands.
public enum TranscriptEntryStatus: Sendable, Hashable {
    /// Whether this is ``failed(_:)``, whatever the reason.
    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// A user message waiting in the outbox for a connection (or to be resent after one was lost).
    case queued
    /// A user message waiting for the gateway's ack.
    case sending
    /// A user message the gateway accepted (acked, or seen in events or history).
    case sent
    /// A user message whose delivery cannot be known: a send left without an answer, the gateway's
    /// duplicate memory (5 minutes) has passed, and its history does not show it. Sending it again
    /// might make it twice, so only the user decides: retry or discard.
    case unconfirmed
    /// A reply still receiving text.
    case streaming
    /// A finished reply, or any other stored message.
    case complete
    /// A reply whose run was aborted: the text is what had arrived.
    case stopped
    /// A user message that could not be sent, or a reply whose run failed, with the reason.
    case failed(String)
}

/// Which knowledge a row rests on.
public enum TranscriptEntrySource: Sendable, Hashable {
    /// The gateway's stored transcript (`chat.history`).
    case history
    /// A message this client sent that history has not confirmed yet.
    case local
    /// A reply assembled from `chat` / `agent` events that history has not confirmed yet.
    case live
}
