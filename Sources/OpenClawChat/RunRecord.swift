import OpenClawProtocol

/// What the reducer remembers about one run of the session: enough to drop duplicated, stale and
/// late events, and the run's outcome once it has one.
struct RunRecord: Sendable, Hashable {
    let runId: String
    /// Highest `chat` event seq applied.
    var lastChatSeq: Int?
    /// The last `chat` event applied, to tell a re-delivered frame from a new one with the same seq.
    var lastChatEvent: ChatEvent?
    /// Highest `agent` event seq applied (one counter across all streams of the run).
    var lastAgentSeq: Int?
    /// Set by the run's one terminal event; later `chat` events are ignored.
    var outcome: RunOutcome?
    /// Index among the reply's activity of the thinking step still receiving text.
    var openThinkingStep: Int?
    /// How many thinking steps the run has had, for their ids.
    var thinkingStepCount = 0
    /// No message sent from here has this run's id (a run started by another client or channel): its
    /// events need not search the transcript for one, which costs a pass over every row per delta.
    var startedElsewhere = false
    /// The reply row as this client's run ended (its terminal event), until a history page shows the
    /// reply. Reconciling drops the row of an ended run that the page does not show, and the page asked
    /// for at the run's end can arrive before whoever follows the run has looked (the ack, the reply and
    /// the final in one burst) or never carry it (a gateway that stores nothing): without this copy the
    /// reply the events brought would vanish, and a `send` would say the run ended without one.
    var endedReply: TranscriptEntry?

    init(runId: String) {
        self.runId = runId
    }
}

/// How a run ended.
public enum RunOutcome: Sendable, Hashable {
    /// The run ended with `final`.
    case completed
    /// Aborted (`rpc`, `stop`, `timeout` ...), with the gateway's stop reason.
    case stopped(reason: String?)
    /// The run ended with `error`: the gateway's message, and its classification when it gave one.
    case failed(message: String, kind: ChatErrorKind?)
}

/// Tool timings seen in `agent` events, kept past reconcile so history-built steps keep durations
/// (the same value the store keeps).
typealias ToolTiming = StoredToolTiming
