import OpenClawProtocol

/// Reconciling with a `chat.history` page, the gateway's authoritative transcript.
///
/// The result is the page's messages, in order, one row each — plus, after them, what the gateway
/// cannot know about yet:
/// * local sends history does not contain, unless their run has ended (then the gateway has spoken
///   and a missing message will not come; a send that failed before reaching the gateway has no run
///   and stays, for a retry);
/// * live replies of runs that have not ended — unless the page follows a resync (events were lost)
///   and the page does not name the run as in flight; a run that is in fact still going comes back
///   with its next event;
/// * local sends and replies of runs that ended after the page was requested (see
///   ``TranscriptAction/historyRequested``): the page is older than their end, and the refresh
///   their end asked for will confirm them.
///
/// Every other row is dropped: history rows outside the page, and replies of ended runs.
///
/// Rows keep their ids. A page message takes the id of the row that already stands for it, found in
/// this order:
/// 1. the row matched to the same history key (`__openclaw.id`, else a derived key) before;
/// 2. for a user message: a local send that may have left (an attempt was made) with the same text
///    (compared after trimming, NUL and control characters dropped, as the gateway sanitises them; a
///    text history cut at `maxChars` matches by its prefix, an oversized placeholder by position),
///    matched newest to newest, among the page's messages after the last one already known — so an
///    old identical message is never mistaken for a new send, and a message still waiting to be sent
///    is never mistaken for another client's;
/// 3. for an assistant message: the reply row of an ended run, if the message carries that run's
///    abort marker, or is the first after the run's user message with the reply's exact text (runs
///    that overlap put every question before the answers), or is the last assistant message with text
///    (failing that, the last assistant message) in the turn after the run's user message, or — for
///    runs this client did not send — has the reply's exact text.
/// A message nothing claims gets its history key as id.
extension Transcript {
    mutating func reconcile(with page: ChatHistoryPage) -> TranscriptApplyResult {
        guard sessionKeys.matches(page.sessionKey, sessionKey) else { return .ignored(.otherSession) }
        let messages = page.messages
        let keys = Self.historyKeys(of: messages)
        var claims = HistoryClaims(messageCount: messages.count)
        claimKnownRows(keys: keys, claims: &claims)
        let knownUpTo = claims.lastClaimedMessage ?? -1
        claimLocalSends(messages: messages, after: knownUpTo, claims: &claims)
        claimEndedReplies(messages: messages, after: knownUpTo, claims: &claims)

        let context = SurvivalContext(
            followsResync: resyncSinceHistory,
            inFlightRunId: page.inFlightRun?.runId,
            runsEndedAfterRequest: historyRequestOutstanding ? runsEndedDuringFetch : []
        )
        let survivors = entries.indices.filter { index in
            !claims.isClaimed(entry: index) && survives(entries[index], context)
        }
        entries = rebuiltEntries(messages: messages, keys: keys, claims: claims, survivors: survivors)
        if let flight = page.inFlightRun { adopt(flight, replacingText: context.followsResync) }
        releaseEndedRepliesShown()
        if context.followsResync {
            runsPresumedOver.formUnion(sendsBeforeResync.filter { $0 != context.inFlightRunId })
            sendsBeforeResync = []
        }

        sessionId = page.sessionId ?? sessionId
        thinkingLevel = page.thinkingLevel ?? thinkingLevel
        hasOlderHistory = page.hasMore ?? false
        resyncSinceHistory = false
        runsEndedDuringFetch = []
        if historyRequestOutstanding {
            historyRequestOutstanding = false
        } else {
            pendingHistoryRefresh = nil
        }
        return .applied
    }

    /// The kept replies of ended runs (``RunRecord/endedReply``) that rows now carry are let go: what
    /// is kept is bounded by the replies history has not shown.
    private mutating func releaseEndedRepliesShown() {
        guard runs.values.contains(where: { $0.endedReply != nil }) else { return }
        var shown = Set<String>()
        for entry in entries where entry.role == .assistant {
            if let runId = entry.runId { shown.insert(runId) }
        }
        for runId in shown where runs[runId]?.endedReply != nil { runs[runId]?.endedReply = nil }
    }

    /// Rule 1: rows already confirmed by an earlier page, by history key.
    private func claimKnownRows(keys: [String], claims: inout HistoryClaims) {
        var entryByKey: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            if let key = entry.historyKey { entryByKey[key] = index }
        }
        for (message, key) in keys.enumerated() {
            if let entry = entryByKey[key], !claims.isClaimed(entry: entry) {
                claims.claim(message: message, entry: entry)
            }
        }
    }

    /// Rule 2: local sends that may have left, newest first, against the page's new user messages,
    /// newest first.
    private func claimLocalSends(messages: [ChatMessage], after knownUpTo: Int, claims: inout HistoryClaims) {
        // A page's user texts are read only when a local send is there to claim one, and each at most
        // once: a first page of 1,000 messages (no local sends) costs nothing here.
        var userTexts: [Int: StoredUserText] = [:]
        func userText(_ index: Int) -> StoredUserText? {
            guard messages[index].role == .user else { return nil }
            if let known = userTexts[index] { return known }
            let text = StoredUserText(messages[index])
            userTexts[index] = text
            return text
        }
        var searchEnd = messages.count
        for entry in entries.indices.reversed() where entries[entry].source == .local && entries[entry].mayHaveLeft {
            guard !claims.isClaimed(entry: entry) else { continue }
            let text = Self.comparableText(entries[entry].text)
            let match = (knownUpTo + 1..<searchEnd).last { message in
                !claims.isClaimed(message: message) && userText(message)?.matches(text) == true
            }
            guard let match else { continue }
            claims.claim(message: match, entry: entry)
            searchEnd = match
        }
    }

    /// Rule 3: reply rows of ended runs.
    private func claimEndedReplies(messages: [ChatMessage], after knownUpTo: Int, claims: inout HistoryClaims) {
        for entry in entries.indices where entries[entry].source == .live && !claims.isClaimed(entry: entry) {
            guard let runId = entries[entry].runId, runs[runId]?.outcome != nil else { continue }
            let match = replyMatch(
                runId: runId, text: entries[entry].text, messages: messages, claims: claims, knownUpTo: knownUpTo
            )
            if let match { claims.claim(message: match, entry: entry) }
        }
    }

    /// One row per page message (claimed rows keep their ids, others take their history key), then
    /// the survivors in their current order.
    private func rebuiltEntries(
        messages: [ChatMessage],
        keys: [String],
        claims: HistoryClaims,
        survivors: [Int]
    ) -> [TranscriptEntry] {
        let survivorSet = Set(survivors)
        var usedIDs = Set<String>()
        for index in entries.indices where claims.isClaimed(entry: index) || survivorSet.contains(index) {
            usedIDs.insert(entries[index].id)
        }
        var ids: [String] = []
        ids.reserveCapacity(messages.count)
        for message in messages.indices {
            if let entry = claims.entry(forMessage: message) {
                ids.append(entries[entry].id)
            } else {
                let id = Self.unique(keys[message], in: usedIDs)
                usedIDs.insert(id)
                ids.append(id)
            }
        }
        let activity = HistoryActivity.steps(for: messages, entryIDs: ids, timings: toolTimings)

        var rebuilt: [TranscriptEntry] = []
        rebuilt.reserveCapacity(messages.count + survivors.count + 1)
        for message in messages.indices {
            var entry =
                if let index = claims.entry(forMessage: message) {
                    entries[index]
                } else {
                    TranscriptEntry(id: ids[message], role: messages[message].role, status: .complete, source: .history)
                }
            entry.adopt(messages[message], key: keys[message], activity: activity[message])
            rebuilt.append(entry)
        }
        for index in survivors { rebuilt.append(entries[index]) }
        return rebuilt
    }

    /// What decides whether a row history does not contain stays after it.
    private struct SurvivalContext {
        /// Events were lost before this page: live text is not to be trusted.
        var followsResync: Bool
        var inFlightRunId: String?
        /// Runs that ended after this page was requested: the page cannot contain them yet.
        var runsEndedAfterRequest: Set<String>
    }

    private func survives(_ entry: TranscriptEntry, _ context: SurvivalContext) -> Bool {
        guard entry.source != .history else { return false }
        guard let runId = entry.runId, runs[runId]?.outcome != nil else {
            // The run has not ended (or never started: a failed send).
            return entry.source == .local || !context.followsResync || entry.runId == context.inFlightRunId
        }
        return context.runsEndedAfterRequest.contains(runId)
    }

    /// Picks up v4 `inFlightRun`: its live row gets the page's text when this client has none, or
    /// when events were lost and the streamed text can no longer be trusted.
    private mutating func adopt(_ flight: InFlightRun, replacingText: Bool) {
        guard runs[flight.runId]?.outcome == nil else { return }
        if runs[flight.runId] == nil { runs[flight.runId] = RunRecord(runId: flight.runId) }
        if let index = lastIndex(ofReplyTo: flight.runId) {
            if replacingText { entries[index].body.set(flight.text) }
        } else {
            let index = replyIndex(for: flight.runId)
            entries[index].body.replace(with: flight.text)
        }
    }

    /// The page message that an ended run's reply row stands for, if any.
    private func replyMatch(
        runId: String,
        text: String,
        messages: [ChatMessage],
        claims: HistoryClaims,
        knownUpTo: Int
    ) -> Int? {
        func free(_ index: Int) -> Bool { !claims.isClaimed(message: index) && messages[index].role == .assistant }

        if let marked = messages.indices.last(where: { free($0) && messages[$0].abort?.runId == runId }) {
            return marked
        }
        let userMessage = messages.indices.first { index in
            guard let entry = claims.entry(forMessage: index) else { return false }
            return entries[entry].role == .user && entries[entry].runId == runId
        }
        if let userMessage {
            // Runs overlap (messages sent while a reply streams): the page can hold every question before
            // the first answer, so the reply is first looked for by its text after the question.
            if !text.isEmpty,
                let same = messages.indices.first(where: { $0 > userMessage && free($0) && messages[$0].text == text })
            {
                return same
            }
            let turnEnd = messages.indices.first { $0 > userMessage && messages[$0].role == .user } ?? messages.count
            let turn = userMessage + 1..<turnEnd
            return turn.last { free($0) && !messages[$0].text.isEmpty } ?? turn.last(where: free)
        }
        guard !text.isEmpty else { return nil }
        return (knownUpTo + 1..<messages.count).last { free($0) && messages[$0].text == text }
    }

    /// Stable keys for a page, numbering repeats (`key`, `key#2` ...) so identical messages stay apart.
    static func historyKeys(of messages: [ChatMessage]) -> [String] {
        var seen: [String: Int] = [:]
        return messages.map { message in
            let key = message.stableKey
            let count = (seen[key] ?? 0) + 1
            seen[key] = count
            return count == 1 ? key : "\(key)#\(count)"
        }
    }

    /// Text as the gateway stores a sent message: control characters other than tab and newlines
    /// removed, surrounding whitespace trimmed. (Swift string equality already ignores Unicode
    /// normalisation differences, which covers the gateway's NFC step.)
    static func comparableText(_ text: String) -> String {
        if isAlreadyComparable(text) { return text }
        let kept = text.unicodeScalars.filter { scalar in
            scalar == "\t" || scalar == "\n" || scalar == "\r" || !(scalar.value < 0x20 || scalar.value == 0x7F)
        }
        let cleaned = String(String.UnicodeScalarView(kept))
        guard let first = cleaned.firstIndex(where: { !$0.isWhitespace }),
            let last = cleaned.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(cleaned[first...last])
    }

    /// Most texts have no control characters and no whitespace at either end: then they are their own
    /// comparable form, found by one pass over their bytes instead of a copy scalar by scalar. (ASCII
    /// whitespace only at the ends; any other byte at an end takes the full path.)
    private static func isAlreadyComparable(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last else { return true }
            guard first > 0x20, first < 0x7F, last > 0x20, last < 0x7F else { return false }
            for byte in bytes where byte < 0x20 || byte == 0x7F {
                guard byte == 0x09 || byte == 0x0A || byte == 0x0D else { return false }
            }
            return true
        } ?? false
    }
}

extension TranscriptEntry {
    /// Takes a history message's content and status, keeping the row's id, run and (if the message
    /// has none) its timestamp.
    mutating func adopt(_ message: ChatMessage, key: String, activity: [ActivityStep]) {
        role = message.role
        source = .history
        historyKey = key
        // Gateways keep an image's type and size, not its name: the row keeps the names this device sent its
        // files under (its local attachments, or the message as stored before), for display, storage and search.
        var named = message.namingMedia(from: localAttachments)
        if let earlier = self.message { named = named.keepingMediaNames(of: earlier) }
        self.message = named
        body.set(message.text)
        timestampMs = message.timestampMs ?? timestampMs
        self.activity = activity
        progressPhase = nil
        stopReason = message.stopReason
        if runId == nil { runId = message.abort?.runId }
        switch message.role {
        case .user:
            status = .sent
        case .assistant where message.errorMessage != nil || message.stopReasonKind == .error:
            status = .failed(message.errorMessage ?? "The run failed.")
        case .assistant where message.abort != nil || message.stopReasonKind == .aborted:
            status = .stopped
        default:
            status = .complete
        }
    }
}

/// Which page message each existing row stands for, one to one.
private struct HistoryClaims {
    private var entryByMessage: [Int?]
    private var claimedEntries: Set<Int> = []

    init(messageCount: Int) {
        entryByMessage = Array(repeating: nil, count: messageCount)
    }

    mutating func claim(message: Int, entry: Int) {
        entryByMessage[message] = entry
        claimedEntries.insert(entry)
    }

    func entry(forMessage message: Int) -> Int? { entryByMessage[message] }
    func isClaimed(message: Int) -> Bool { entryByMessage[message] != nil }
    func isClaimed(entry: Int) -> Bool { claimedEntries.contains(entry) }
    var lastClaimedMessage: Int? { entryByMessage.lastIndex { $0 != nil } }
}
