import OpenClawProtocol

/// The transcript of one session: a pure, deterministic reducer over the user's sends, the gateway's
/// `chat` and `agent` events, and `chat.history` pages.
///
/// It holds no clock, no randomness and no I/O: every time and id arrives inside an action, so the
/// same actions always give the same rows, and a terminal and an iOS client share the same engine.
/// Streaming costs O(text received): reply text grows in an append-only `TextBuffer`.
///
/// The engine around it sends `chat.send` / `chat.history` and feeds the answers back, and fetches
/// history when ``reduce(_:)`` returns ``TranscriptEffect/fetchHistory(_:)``.
public struct Transcript: Sendable, Hashable {
    /// The session this transcript follows, as the client names it (`main` is fine).
    public let sessionKey: String
    /// Decides which session keys of events and pages mean this session (`main` and the canonical
    /// main key are the same).
    public let sessionKeys: SessionKeyMatcher
    /// The rows, oldest first: the last history page, then local sends and live replies history has
    /// not confirmed yet.
    public internal(set) var entries: [TranscriptEntry] = []
    /// Set when a history fetch would bring the transcript up to date (a run ended, events were lost).
    public internal(set) var pendingHistoryRefresh: HistoryRefreshReason?
    /// From the last history page.
    public internal(set) var sessionId: String?
    /// The session's thinking level, from the last history page that had one.
    public internal(set) var thinkingLevel: String?
    /// From the last history page (v4 paging): older messages exist than the first row.
    public internal(set) var hasOlderHistory = false

    var runs: [String: RunRecord] = [:]
    var toolTimings: [String: ToolTiming] = [:]
    var historyRequestOutstanding = false
    /// Events may have been lost since the last history page: live text is not to be trusted.
    var resyncSinceHistory = false
    /// Runs that ended after the outstanding history request was made: its page cannot show them yet.
    var runsEndedDuringFetch: Set<String> = []
    /// Runs of this client's sends that were not over when events were lost (the last resync).
    var sendsBeforeResync: Set<String> = []
    /// Runs of this client's sends whose end it will never see: events were lost and history did not
    /// name them in flight, or a resend was answered `ok` (the run finished unseen). Their confirmed
    /// messages no longer count as running.
    var runsPresumedOver: Set<String> = []
    /// Sends the gateway answered as a command (a stop phrase): no run started, and their rows are gone.
    /// Kept so whoever waits for such a send learns how it ended.
    public internal(set) var sendsHandledAsCommand: Set<String> = []
    /// Local sends the last action's events proved the gateway has: the driver tells the outbox
    /// (``TranscriptEffect/sendAccepted(id:)``). Only the last action's, so it stays small.
    var sendsProvenByEvents: [String] = []

    /// An empty transcript for one session. Pass the matcher of the gateway's `hello-ok`
    /// (`SessionKeyMatcher(defaults:)`) when it names its main session differently from the defaults.
    public init(sessionKey: String, sessionKeys: SessionKeyMatcher = SessionKeyMatcher()) {
        self.sessionKey = sessionKey
        self.sessionKeys = sessionKeys
    }

    /// Applies one action. Actions that do not concern this transcript (another session, a
    /// duplicated or late event) leave it unchanged and say why.
    @discardableResult
    public mutating func apply(_ action: TranscriptAction) -> TranscriptApplyResult {
        sendsProvenByEvents = []
        switch action {
        case .send(let send): return applySend(send)
        case .sendQueued(let id): return applySendQueued(id: id)
        case .sendAcknowledged(let ack): return applyAck(ack)
        case .sendFailed(let id, let reason): return applySendFailure(id: id, reason: reason)
        case .discard(let id): return discardFailedSend(id: id)
        case .sendHandledAsCommand(let id): return removeCommandSend(id: id)
        case .sendUnconfirmed(let id): return applySendUnconfirmed(id: id)
        case .delivery(let id, let status): return applyDelivery(id: id, status: status)
        case .restored(let messages): return restore(messages)
        case .chatEvent(let event): return applyChatEvent(event)
        case .agentEvent(let event): return applyAgentEvent(event)
        case .historyRequested:
            pendingHistoryRefresh = nil
            historyRequestOutstanding = true
            runsEndedDuringFetch = []
            return .applied
        case .historyLoaded(let page): return reconcile(with: page)
        case .resyncNeeded(let reason):
            pendingHistoryRefresh = .resync(reason)
            resyncSinceHistory = true
            for entry in entries where entry.role == .user {
                if let runId = entry.runId, runs[runId]?.outcome == nil { sendsBeforeResync.insert(runId) }
            }
            return .applied
        }
    }

    /// The functional form of ``apply(_:)``.
    public static func reduce(_ state: Transcript, _ action: TranscriptAction) -> Transcript {
        var next = state
        next.apply(action)
        return next
    }

    /// The row with this id, if there is one.
    public func entry(id: String) -> TranscriptEntry? {
        entries.first { $0.id == id }
    }

    /// How a run ended; nil while it runs or if this transcript never saw it.
    public func outcome(ofRun runId: String) -> RunOutcome? {
        runs[runId]?.outcome
    }

    /// The reply of one of this client's runs as its terminal event left it, while no history page has
    /// shown that reply: what to report for a run whose row a page without it has dropped. Nil for runs
    /// started elsewhere, silent replies, and once history shows the reply (its row carries it then).
    public func endedReply(ofRun runId: String) -> TranscriptEntry? {
        runs[runId]?.endedReply
    }

    /// Runs that may still produce text: streaming replies and sends whose run has not ended. What a
    /// stop button would abort. A send stays active once history confirms its message: the run goes on
    /// until its terminal event, which may come after the page (and before any reply text).
    public var activeRunIds: [String] {
        var result: [String] = []
        for entry in entries {
            guard let runId = entry.runId, keepsRunActive(entry, runId: runId), !result.contains(runId) else {
                continue
            }
            result.append(runId)
        }
        return result
    }

    /// Whether `runId` is one of ``activeRunIds``. One pass comparing ids: a terminal client asks this
    /// for its run on every streamed delta, and listing every active run looked each row's run up.
    public func isActive(runId: String) -> Bool {
        entries.contains { $0.runId == runId && keepsRunActive($0, runId: runId) }
    }

    /// Whether `entry` (of run `runId`) keeps its run active: its state first, the run's record only then.
    private func keepsRunActive(_ entry: TranscriptEntry, runId: String) -> Bool {
        let active =
            switch (entry.source, entry.status) {
            case (.live, .streaming), (.local, .sending): true
            // A send whose end will never be seen (events were lost and history does not name it in
            // flight, or the gateway restarted without it) no longer holds the session as running.
            case (.local, .sent), (.history, .sent): entry.role == .user && !runsPresumedOver.contains(runId)
            default: false
            }
        return active && runs[runId]?.outcome == nil
    }

    // MARK: Shared helpers

    func lastIndex(ofReplyTo runId: String) -> Int? {
        entries.lastIndex { $0.source == .live && $0.runId == runId }
    }

    func lastIndex(ofEntry id: String) -> Int? {
        entries.lastIndex { $0.id == id }
    }

    /// The live reply row of `runId`, appended (streaming, empty) if there is none yet.
    mutating func replyIndex(for runId: String) -> Int {
        if let index = lastIndex(ofReplyTo: runId) { return index }
        let entry = TranscriptEntry(
            id: uniqueID("reply:\(runId)"),
            role: .assistant,
            status: .streaming,
            source: .live,
            runId: runId
        )
        entries.append(entry)
        return entries.count - 1
    }

    /// `base`, or `base#2`, `base#3` ... when a row already has that id.
    func uniqueID(_ base: String) -> String {
        var used = Set<String>()
        for entry in entries { used.insert(entry.id) }
        return Self.unique(base, in: used)
    }

    static func unique(_ base: String, in used: Set<String>) -> String {
        guard used.contains(base) else { return base }
        var counter = 2
        while used.contains("\(base)#\(counter)") { counter += 1 }
        return "\(base)#\(counter)"
    }

    mutating func requestHistoryRefresh(_ reason: HistoryRefreshReason) {
        pendingHistoryRefresh = reason
    }
}
