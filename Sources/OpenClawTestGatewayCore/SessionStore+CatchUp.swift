import OpenClawProtocol

/// The answer to `chat.history` with a `cursor`: the messages stored since, or nil for `reset`.
struct CatchUpWindow: Sendable {
    var messages: [JSONValue]
    var deltaCursor: String
}

extension SessionStore {
    /// Upstream's catch-up bounds (`gateway/protocol.md`): more raw events or bytes than these since the
    /// cursor answer `reset`, never a partial delta.
    static let catchUpMaximumEvents = 200
    static let catchUpBudgetBytes = 1_000_000

    /// The opaque cursor for a session as it is now. Opaque to clients; here the transcript id and how
    /// many entries it had, so a reset (new transcript id) or a later boundary row invalidates it.
    func deltaCursor(_ rawKey: String) -> String? {
        guard let session = session(rawKey) else { return nil }
        return "dc1:\(session.sessionId):\(session.entries.count)"
    }

    /// What was stored after `cursor`, presented as in a tail page; nil when upstream answers `reset`:
    /// a cursor that does not parse, is of another transcript (a reset, another session), points past
    /// the end, crosses a compaction or reset row, or lags by more than the bounds.
    func catchUp(
        _ rawKey: String, cursor: String, maxChars: Int?, images: HistoryImageForm = .omitted
    ) -> CatchUpWindow? {
        guard let session = session(rawKey), let next = deltaCursor(rawKey) else { return nil }
        let parts = cursor.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "dc1", parts[1] == Substring(session.sessionId),
            let seen = Int(parts[2]), seen >= 0, seen <= session.entries.count,
            session.entries.count - seen <= Self.catchUpMaximumEvents
        else { return nil }
        let gap = session.entries[seen...]
        guard gap.allSatisfy({ $0.boundary == nil }) else { return nil }
        let window = history(
            rawKey, limit: gap.count, maxChars: maxChars, offset: 0, images: images)
        let bytes = window.messages.reduce(0) { $0 + JSONSerializer.string($1).utf8.count + 1 }
        guard window.messages.count == gap.count, bytes <= Self.catchUpBudgetBytes else { return nil }
        return CatchUpWindow(messages: window.messages, deltaCursor: next)
    }

    /// One entry's `__openclaw`: its id and 1-based position, plus a divider's kind and token counts.
    static func entryInfo(_ entry: TranscriptEntry, seq: Int) -> JSONValue {
        var info = entry.boundary ?? [:]
        info["id"] = .string(entry.id)
        info["seq"] = .int(seq)
        return .object(info)
    }
}
