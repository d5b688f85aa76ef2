import OpenClawProtocol

/// The user's side: optimistic rows for sent messages and their delivery status.
extension Transcript {
    mutating func applySend(_ send: LocalSend) -> TranscriptApplyResult {
        if let index = lastIndex(ofEntry: send.id) {
            guard entries[index].source == .local else { return .ignored(.duplicate) }
            if send.isAttempt { entries[index].mayHaveLeft = true }
            // A retry's row may already read as sending (derived from the outbox): an attempt still re-arms
            // a run presumed over, or the message would read as not running until its first event.
            let rearmsRun = send.isAttempt && entries[index].status == .sending && runsPresumedOver.contains(send.id)
            guard
                entries[index].status.isFailed || entries[index].status == .queued
                    || entries[index].status == .unconfirmed || rearmsRun
            else { return .ignored(.duplicate) }
            entries[index].status = .sending
            runsPresumedOver.remove(send.id)
            entries[index].body.replace(with: send.text)
            entries[index].timestampMs = send.timestampMs
            return .applied
        }
        var entry = TranscriptEntry(
            id: send.id,
            role: .user,
            status: .sending,
            source: .local,
            runId: send.id,
            timestampMs: send.timestampMs,
            text: send.text
        )
        entry.mayHaveLeft = send.isAttempt
        entry.localAttachments = send.attachments
        entries.append(entry)
        runs[send.id]?.startedElsewhere = false
        return .applied
    }

    mutating func removeCommandSend(id: String) -> TranscriptApplyResult {
        guard let index = lastIndex(ofEntry: id), entries[index].source == .local else { return .ignored(.noSuchEntry) }
        entries.remove(at: index)
        sendsHandledAsCommand.insert(id)
        return .applied
    }

    mutating func applySendUnconfirmed(id: String) -> TranscriptApplyResult {
        guard let index = lastIndex(ofEntry: id), entries[index].source == .local, entries[index].role == .user else {
            return .ignored(.noSuchEntry)
        }
        entries[index].status = .unconfirmed
        return .applied
    }

    mutating func applySendQueued(id: String) -> TranscriptApplyResult {
        guard let index = lastIndex(ofEntry: id), entries[index].source == .local else { return .ignored(.noSuchEntry) }
        switch entries[index].status {
        case .sending, .failed, .queued, .unconfirmed:
            entries[index].status = .queued
            return .applied
        default:
            return .ignored(.noSuchEntry)
        }
    }

    mutating func applyAck(_ ack: ChatSendAck) -> TranscriptApplyResult {
        guard let index = lastIndex(ofEntry: ack.runId), entries[index].source == .local else {
            return .ignored(.noSuchEntry)
        }
        entries[index].mayHaveLeft = true
        switch ack.status {
        case .error:
            entries[index].status = .failed(ack.summary ?? "The gateway did not accept the message.")
        case .ok:
            // A retry of a message whose run already finished: no events will come, history has it.
            entries[index].status = .sent
            runsPresumedOver.insert(ack.runId)
            requestHistoryRefresh(.runFinishedUnseen(runId: ack.runId))
        case .started, .inFlight, .other:
            entries[index].status = .sent
        }
        return .applied
    }

    mutating func applySendFailure(id: String, reason: String) -> TranscriptApplyResult {
        guard let index = lastIndex(ofEntry: id), entries[index].source == .local,
            entries[index].status == .sending || entries[index].status == .queued
        else { return .ignored(.noSuchEntry) }
        entries[index].status = .failed(reason)
        return .applied
    }

    mutating func discardFailedSend(id: String) -> TranscriptApplyResult {
        guard let index = lastIndex(ofEntry: id), entries[index].source == .local,
            entries[index].status.isFailed || entries[index].status == .queued
                || entries[index].status == .unconfirmed
        else { return .ignored(.noSuchEntry) }
        entries.remove(at: index)
        return .applied
    }

    /// Events for a run prove the gateway has its message, whatever the ack said or did not say.
    mutating func markSendAccepted(run: inout RunRecord) {
        guard !run.startedElsewhere else { return }
        guard let index = lastIndex(ofEntry: run.runId), entries[index].source == .local else {
            run.startedElsewhere = true
            return
        }
        // Only a message an attempt may have carried can be proved by its run's events: events naming one
        // never sent are not its run's, and it stays to be sent.
        guard entries[index].mayHaveLeft else { return }
        switch entries[index].status {
        case .sending, .failed, .queued, .unconfirmed:
            entries[index].status = .sent
            sendsProvenByEvents.append(run.runId)
        default: break
        }
    }

    mutating func applyDelivery(id: String, status: TranscriptEntryStatus) -> TranscriptApplyResult {
        guard let index = lastIndex(ofEntry: id), entries[index].source == .local, entries[index].role == .user else {
            return .ignored(.noSuchEntry)
        }
        switch status {
        case .queued, .sending, .sent, .unconfirmed, .failed: break
        case .streaming, .complete, .stopped: return .ignored(.noSuchEntry)
        }
        guard entries[index].status != status else { return .ignored(.duplicate) }
        entries[index].status = status
        if status == .sent { entries[index].mayHaveLeft = true }
        return .applied
    }
}
