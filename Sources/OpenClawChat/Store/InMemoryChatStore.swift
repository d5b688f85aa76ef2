import OpenClawProtocol

/// A ``ChatStore`` that forgets everything when the process ends: for tests, previews and one-shot
/// commands. Same ordering and outbox semantics as the SQLite store; search is a plain word match.
public actor InMemoryChatStore: ChatStore {
    private struct SessionID: Hashable {
        var gateway: String
        var sessionKey: String
    }

    private var sessions: [SessionID: [StoredMessage]] = [:]
    private var outboxes: [String: [OutboxMessage]] = [:]

    public init() {}

    public func latestMessages(gateway: String, sessionKey: String, limit: Int) -> [StoredMessage] {
        Array(sessions[SessionID(gateway: gateway, sessionKey: sessionKey), default: []].suffix(max(0, limit)))
    }

    public func record(_ messages: [StoredMessage], gateway: String, sessionKey: String) {
        let session = SessionID(gateway: gateway, sessionKey: sessionKey)
        var stored = sessions[session, default: []]
        // New messages before the first stored one of the page go just before it; with none stored,
        // the page is newer than everything kept and goes last.
        let anchor = messages.lazy.compactMap { message in
            stored.firstIndex { $0.historyKey == message.historyKey }
        }.first
        var insertAt = anchor ?? stored.count
        for message in messages {
            if let index = stored.firstIndex(where: { $0.historyKey == message.historyKey }) {
                stored[index] = message
                insertAt = index + 1
            } else {
                stored.insert(message, at: insertAt)
                insertAt += 1
            }
        }
        sessions[session] = stored
    }

    public func search(_ query: String, gateway: String?, limit: Int) -> [SearchHit] {
        let words = query.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty else { return [] }
        var hits: [SearchHit] = []
        for (session, messages) in sessions where gateway == nil || session.gateway == gateway {
            for stored in messages.reversed() {
                let text = stored.message.text
                let lowered = text.lowercased()
                guard words.allSatisfy({ lowered.contains($0) }) else { continue }
                hits.append(
                    SearchHit(
                        gateway: session.gateway,
                        sessionKey: session.sessionKey,
                        messageId: stored.id,
                        role: stored.message.role,
                        parts: [SearchHit.Part(text: String(text.prefix(120)), isMatch: false)],
                        timestampMs: stored.message.timestampMs
                    )
                )
            }
        }
        return Array(hits.prefix(max(0, limit)))
    }

    public func enqueue(_ message: OutboxMessage) {
        var outbox = outboxes[message.gateway, default: []]
        guard !outbox.contains(where: { $0.id == message.id }) else { return }
        outbox.append(message)
        outboxes[message.gateway] = outbox
    }

    public func update(_ message: OutboxMessage) {
        guard let index = outboxes[message.gateway]?.firstIndex(where: { $0.id == message.id }) else { return }
        outboxes[message.gateway]?[index] = message
    }

    public func removeFromOutbox(id: String, gateway: String) {
        outboxes[gateway]?.removeAll { $0.id == id }
    }

    public func outbox(gateway: String) -> [OutboxMessage] {
        outboxes[gateway, default: []]
    }
}
