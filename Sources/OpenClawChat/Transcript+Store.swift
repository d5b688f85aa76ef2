import OpenClawProtocol

/// What the store keeps of a transcript, and painting a transcript from it.
extension Transcript {
    /// The rows the gateway's history confirmed, with their ids and the tool timings seen live: what a
    /// ``ChatStore`` records so the next launch shows the same rows, with the same ids, at once.
    public var storableMessages: [StoredMessage] {
        entries.compactMap { entry in
            guard entry.source == .history, let message = entry.message, let key = entry.historyKey else {
                return nil
            }
            var timings: [String: StoredToolTiming] = [:]
            for case .toolCall(let id?, _, _) in message.content {
                if let timing = toolTimings[id] { timings[id] = timing }
            }
            return StoredMessage(
                id: entry.id, historyKey: key, runId: entry.runId, message: message, toolTimings: timings)
        }
    }

    /// Puts stored history before the rows already here (local sends from the outbox). The rows keep
    /// their history keys, so the first real page claims them and their ids do not change.
    mutating func restore(_ stored: [StoredMessage]) -> TranscriptApplyResult {
        guard !entries.contains(where: { $0.source == .history }) else { return .ignored(.stale) }
        guard !stored.isEmpty else { return .applied }
        for message in stored {
            // Runs of a previous launch: whatever became of them, this process will not see them end.
            if let runId = message.runId, runs[runId]?.outcome == nil { runsPresumedOver.insert(runId) }
            for (id, timing) in message.toolTimings where toolTimings[id] == nil { toolTimings[id] = timing }
        }
        var used = Set(entries.map(\.id))
        let ids = stored.map { message in
            let id = Self.unique(message.id, in: used)
            used.insert(id)
            return id
        }
        let messages = stored.map(\.message)
        let activity = HistoryActivity.steps(for: messages, entryIDs: ids, timings: toolTimings)
        var rows: [TranscriptEntry] = []
        rows.reserveCapacity(stored.count + entries.count)
        for index in stored.indices {
            var entry = TranscriptEntry(
                id: ids[index],
                role: messages[index].role,
                status: .complete,
                source: .history,
                runId: stored[index].runId
            )
            entry.adopt(messages[index], key: stored[index].historyKey, activity: activity[index])
            rows.append(entry)
        }
        entries = rows + entries
        return .applied
    }
}
