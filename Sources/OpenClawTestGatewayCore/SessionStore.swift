import OpenClawProtocol

/// One stored transcript message and its entry id.
struct TranscriptEntry: Sendable {
    var id: String
    var message: JSONValue
    /// For a synthetic divider row: the `__openclaw` members besides `id` and `seq` (`kind`, and for a
    /// compaction the token counts).
    var boundary: [String: JSONValue]? = nil
}

/// A chat session: its canonical key, transcript id and messages in order.
struct ChatSession: Sendable {
    var key: String
    var sessionId: String
    var entries: [TranscriptEntry] = []
    var updatedAt: Int
    var thinkingLevel: String = "off"
    var label: String?
    var model: String?
    /// Tokens the session's runs read and wrote, summed (what `sessions.changed` reports).
    var inputTokens = 0
    var outputTokens = 0
}

/// The gateway's sessions, keyed by canonical session key.
struct SessionStore: Sendable {
    static let mainSessionKey = "agent:main:main"

    private(set) var sessions: [String: ChatSession] = [:]

    /// `main` is an alias of `agent:main:main`; every other key is used as given.
    static func canonicalKey(_ raw: String) -> String {
        raw == "main" ? mainSessionKey : raw
    }

    func session(_ rawKey: String) -> ChatSession? {
        sessions[Self.canonicalKey(rawKey)]
    }

    /// The session for `rawKey`, created with `newSessionId` when missing.
    mutating func ensure(_ rawKey: String, newSessionId: @autoclosure () -> String, nowMs: Int) -> ChatSession {
        let key = Self.canonicalKey(rawKey)
        if let existing = sessions[key] { return existing }
        let created = ChatSession(key: key, sessionId: newSessionId(), updatedAt: nowMs)
        sessions[key] = created
        return created
    }

    mutating func update(_ session: ChatSession) {
        sessions[session.key] = session
    }

    mutating func append(_ message: JSONValue, id: String, to rawKey: String, nowMs: Int) {
        let key = Self.canonicalKey(rawKey)
        guard var session = sessions[key] else { return }
        session.entries.append(TranscriptEntry(id: id, message: message))
        session.updatedAt = nowMs
        sessions[key] = session
    }

    /// Texts of the user messages of a session, in order.
    func userTexts(_ rawKey: String) -> [String] {
        (session(rawKey)?.entries ?? []).compactMap { entry in
            guard entry.message["role"]?.stringValue == "user" else { return nil }
            if let text = entry.message["content"]?.stringValue { return text }
            return entry.message["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined(separator: "\n")
        }
    }
}
