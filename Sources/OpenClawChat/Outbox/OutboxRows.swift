import OpenClawProtocol

/// How the outbox shows in the transcript. A local message's delivery state lives in the outbox; its
/// row's status is derived from it here and nowhere else, so the two cannot disagree.
extension OutboxState {
    /// The status a row shows for a message in this state. `isConnected`: a message waiting for
    /// delivery on a live connection is being sent by the flush now, in order, so it reads as sending;
    /// without a connection it waits.
    public func rowStatus(isConnected: Bool) -> TranscriptEntryStatus {
        switch self {
        case .queued, .sending: isConnected ? .sending : .queued
        case .ambiguous: .queued
        case .accepted: .sent
        case .failed(let reason): .failed(reason)
        case .unconfirmed: .unconfirmed
        }
    }
}

extension OutboxMessage {
    /// Whether an attempt may have reached the gateway: only then may history match the row by text.
    var mayHaveLeft: Bool {
        state == .sending || state == .ambiguous || state == .accepted || state == .unconfirmed
    }

    /// The actions that show this message's row, in its outbox state, when the transcript has none
    /// (after a restart, or a rebuilt transcript).
    func restoredRowActions(isConnected: Bool) -> [TranscriptAction] {
        let shown = TranscriptAction.send(
            LocalSend(
                id: id, text: text, timestampMs: createdAtMs, isAttempt: mayHaveLeft,
                attachments: attachments.map(\.summary)))
        guard state != .accepted else {
            // Accepted earlier, its run's events unseen: history will show the message and the reply.
            return [
                shown, .sendAcknowledged(ChatSendAck(runId: id, status: .ok)), deliveryAction(isConnected: isConnected),
            ]
        }
        return [shown, deliveryAction(isConnected: isConnected)]
    }

    /// The action that brings this message's row to its outbox state.
    func deliveryAction(isConnected: Bool) -> TranscriptAction {
        .delivery(id: id, status: state.rowStatus(isConnected: isConnected))
    }
}
