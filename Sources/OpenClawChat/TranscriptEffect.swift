/// What a ``Transcript`` asks of whoever drives it, returned by ``Transcript/reduce(_:)``: the reducer
/// decides, the driver does the I/O.
public enum TranscriptEffect: Sendable, Hashable {
    /// Read `chat.history` and apply the page (``TranscriptAction/historyLoaded(_:)``): a run ended, or
    /// events may have been lost. Returned after every action while the need stands, so a fetch that
    /// could not be made (no connection) is asked for again; a driver runs one fetch at a time and lets
    /// requests that come meanwhile join it.
    case fetchHistory(HistoryRefreshReason)
    /// Events of this local send's run prove the gateway has the message, whatever its `chat.send` said
    /// or has yet to say: the outbox must stop treating it as undelivered, and the row follows the
    /// outbox (``TranscriptAction/delivery(id:status:)``).
    case sendAccepted(id: String)
}

extension Transcript {
    /// Applies `action` and returns what the driver must do about it.
    public mutating func reduce(_ action: TranscriptAction) -> [TranscriptEffect] {
        apply(action)
        var effects = sendsProvenByEvents.map(TranscriptEffect.sendAccepted(id:))
        if let reason = pendingHistoryRefresh { effects.append(.fetchHistory(reason)) }
        return effects
    }
}
