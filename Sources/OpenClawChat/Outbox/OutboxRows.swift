import OpenClawProtocol

/// How the outbox shows in the transcript: the row a waiting message gets back after a restart or a
/// rebuilt transcript, and what an attempt's outcome does to its row.
extension OutboxMessage {
    /// The actions that show this message's row in its outbox state. `isConnected`: a send found in
    /// flight is only shown as queued while there is no connection to carry it.
    func restoredRowActions(isConnected: Bool) -> [TranscriptAction] {
        let mayHaveLeft = state == .sending || state == .ambiguous || state == .accepted || state == .unconfirmed
        let shown = TranscriptAction.send(
            LocalSend(
                id: id, text: text, timestampMs: createdAtMs, isAttempt: mayHaveLeft,
                attachments: attachments.map(\.summary)))
        switch state {
        case .queued, .ambiguous:
            return [shown, .sendQueued(id: id)]
        case .sending:
            return isConnected ? [shown] : [shown, .sendQueued(id: id)]
        case .accepted:
            // Accepted earlier, its run's events unseen: history will show the message and the reply.
            return [shown, .sendAcknowledged(ChatSendAck(runId: id, status: .ok))]
        case .failed(let reason):
            return [shown, .sendFailed(id: id, reason: reason)]
        case .unconfirmed:
            return [shown, .sendUnconfirmed(id: id)]
        }
    }
}

extension SendAttemptOutcome {
    /// What the outcome of an attempt for message `id` does to its row.
    func rowAction(id: String) -> TranscriptAction {
        switch self {
        case .handledAsCommand: .sendHandledAsCommand(id: id)
        case .accepted(let ack): .sendAcknowledged(ack)
        case .neverLeft, .ambiguous: .sendQueued(id: id)
        case .rejected(let reason): .sendFailed(id: id, reason: reason)
        }
    }
}
