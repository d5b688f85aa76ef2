/// What a ``Transcript`` asks of whoever drives it, returned by ``Transcript/reduce(_:)``: the reducer
/// decides, the driver does the I/O.
public enum TranscriptEffect: Sendable, Hashable {
    /// Read `chat.history` and apply the page (``TranscriptAction/historyLoaded(_:)``): a run ended, or
    /// events may have been lost. Returned after every action while the need stands, so a fetch that
    /// could not be made (no connection) is asked for again; a driver runs one fetch at a time and lets
    /// requests that come meanwhile join it.
    case fetchHistory(HistoryRefreshReason)
}

extension Transcript {
    /// Applies `action` and returns what the driver must do about it.
    public mutating func reduce(_ action: TranscriptAction) -> [TranscriptEffect] {
        apply(action)
        guard let reason = pendingHistoryRefresh else { return [] }
        return [.fetchHistory(reason)]
    }
}
