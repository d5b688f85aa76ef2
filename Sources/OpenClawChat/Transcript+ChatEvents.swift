import OpenClawProtocol

/// `chat` events: the reply text of each run, and the run's one terminal state.
extension Transcript {
    mutating func applyChatEvent(_ event: ChatEvent) -> TranscriptApplyResult {
        guard sessionKeys.matches(event.sessionKey, sessionKey) else { return .ignored(.otherSession) }
        // Moved out and back, not copied: a copy retained every reference the record holds, and the
        // write-back released them again, on every delta. Every path below puts it back.
        var run = runs.removeValue(forKey: event.runId) ?? RunRecord(runId: event.runId)
        defer { runs[event.runId] = run }
        guard run.outcome == nil else { return .ignored(.runEnded) }
        if let seq = event.seq, let last = run.lastChatSeq {
            // A frame seen twice carries the same seq and payload; a flush delta and the final that
            // follows it may share a seq but differ, and both count.
            if seq == last, run.lastChatEvent == event { return .ignored(.duplicate) }
            // Terminal events are accepted whatever their seq: the run must end exactly once.
            if seq < last, !event.state.isTerminal { return .ignored(.stale) }
        }
        if let seq = event.seq { run.lastChatSeq = max(seq, run.lastChatSeq ?? seq) }
        run.lastChatEvent = event
        markSendAccepted(run: &run)

        switch event.state {
        case .delta:
            let index = replyIndex(for: event.runId)
            applyDeltaText(of: event, at: index)
            entries[index].progressPhase = nil
        case .other(let state):
            let index = replyIndex(for: event.runId)
            entries[index].progressPhase = event.statusPhase ?? state
        case .final:
            finish(event, outcome: .completed, status: .complete, stepsEndAs: .succeeded, run: &run)
        case .aborted:
            let outcome = RunOutcome.stopped(reason: event.stopReason)
            finish(event, outcome: outcome, status: .stopped, stepsEndAs: .failed, run: &run)
        case .error:
            let message = event.errorMessage ?? event.message?.errorMessage ?? "The run failed."
            let outcome = RunOutcome.failed(message: message, kind: event.errorKind)
            finish(event, outcome: outcome, status: .failed(message), stepsEndAs: .failed, run: &run)
        }
        return .applied
    }

    /// The delta rule shared by both protocol versions: a message snapshot with text wins (every v3
    /// delta; v4 deltas that carry one); else v4 `replace` starts over with `deltaText` (an empty
    /// one clears the live text); else `deltaText` is appended. A snapshot or replacement that only
    /// extends the text is taken as an append (``TextBuffer/set(_:)``): the text's revision changes
    /// only when it really changed, so a terminal prints only the new bytes of each v3 delta.
    private mutating func applyDeltaText(of event: ChatEvent, at index: Int) {
        if let message = event.message, message.hasText {
            entries[index].body.set(message.text)
        } else if event.replace {
            entries[index].body.set(event.deltaText ?? "")
        } else if let deltaText = event.deltaText {
            entries[index].body.append(deltaText)
        }
    }

    /// Ends the run: the reply row takes the terminal message's text when it has one (else keeps
    /// what streamed), its status, and its open activity steps end. A `final` with nothing to show
    /// (a silent reply) leaves no row; `aborted` and `error` always leave one, so the user sees what
    /// happened.
    private mutating func finish(
        _ event: ChatEvent,
        outcome: RunOutcome,
        status: TranscriptEntryStatus,
        stepsEndAs stepStatus: ActivityStatus,
        run: inout RunRecord
    ) {
        run.outcome = outcome
        run.openThinkingStep = nil
        run.lastChatEvent = nil
        requestHistoryRefresh(.runEnded(runId: event.runId))
        if historyRequestOutstanding { runsEndedDuringFetch.insert(event.runId) }

        let hasText = event.message?.hasText ?? false
        let index: Int
        if let existing = lastIndex(ofReplyTo: event.runId) {
            index = existing
        } else if hasText || event.state != .final {
            index = replyIndex(for: event.runId)
        } else {
            return
        }
        if let message = event.message {
            if message.hasText { entries[index].body.set(message.text) }
            entries[index].message = message
            entries[index].timestampMs = message.timestampMs ?? entries[index].timestampMs
        }
        entries[index].status = status
        entries[index].progressPhase = nil
        entries[index].stopReason = event.stopReason ?? event.message?.stopReason
        entries[index].errorKind = event.errorKind
        for step in entries[index].activity.indices {
            entries[index].activity[step].finish(stepStatus, at: nil)
        }
        if event.state == .final, entries[index].body.isEmpty, entries[index].activity.isEmpty {
            entries.remove(at: index)
            return
        }
        if !run.startedElsewhere { run.endedReply = entries[index] }
    }
}
