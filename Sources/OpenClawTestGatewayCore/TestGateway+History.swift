import OpenClawProtocol

extension TestGateway {
    /// Every `chat.history` answer sent so far, in order: a tail page, a catch-up's delta, or a reset.
    public func historyAnswers() async -> [HistoryAnswer] { await hub.historyAnswerLog() }

    /// Stores a message in a session as if another device's turn had written it (no events are sent):
    /// for tests of what a client learns when it comes back.
    public func appendMessage(sessionKey: String, role: String, text: String) async {
        await hub.appendStored(
            ["role": .string(role), "content": [["type": "text", "text": .string(text)]]], sessionKey: sessionKey)
    }

    /// Stores a divider row, as upstream's history shows a compaction checkpoint or a reset archive:
    /// a `system` row whose `__openclaw` carries the kind (and a compaction's token counts).
    public func appendBoundary(sessionKey: String, _ kind: TranscriptBoundaryKind) async {
        let text: String
        var boundary: [String: JSONValue]
        switch kind {
        case .compaction(let before, let after):
            text = "Compaction"
            boundary = ["kind": "compaction"]
            if let before { boundary["tokensBefore"] = .int(before) }
            if let after { boundary["tokensAfter"] = .int(after) }
        case .reset:
            text = "Reset"
            boundary = ["kind": "reset"]
        }
        await hub.appendStored(
            ["role": "system", "content": [["type": "text", "text": .string(text)]]], sessionKey: sessionKey,
            boundary: boundary)
    }
}

extension GatewayHub {
    func appendStored(_ message: JSONValue, sessionKey: String, boundary: [String: JSONValue]? = nil) {
        let now = Self.nowMs()
        var session = sessions.store.ensure(sessionKey, newSessionId: Self.newId(), nowMs: now)
        guard case .object(var members) = message else { return }
        members["timestamp"] = .int(now)
        session.entries.append(TranscriptEntry(id: Self.newId(), message: .object(members), boundary: boundary))
        session.updatedAt = now
        sessions.store.update(session)
    }
}
