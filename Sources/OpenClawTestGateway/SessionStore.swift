import OpenClawProtocol

/// One stored transcript message and its entry id.
struct TranscriptEntry: Sendable {
    var id: String
    var message: JSONValue
}

/// A chat session: its canonical key, transcript id and messages in order.
struct ChatSession: Sendable {
    var key: String
    var sessionId: String
    var entries: [TranscriptEntry] = []
    var updatedAt: Int
    var thinkingLevel: String = "off"
}

/// The gateway's sessions, keyed by canonical session key.
struct SessionStore: Sendable {
    static let mainSessionKey = "agent:main:main"
    /// Marker appended to text cut by `maxChars`.
    static let truncationMarker = "\n...(truncated)..."

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

    mutating func append(_ message: JSONValue, id: String, to rawKey: String, nowMs: Int) {
        let key = Self.canonicalKey(rawKey)
        guard var session = sessions[key] else { return }
        session.entries.append(TranscriptEntry(id: id, message: message))
        session.updatedAt = nowMs
        sessions[key] = session
    }

    /// The last `limit` messages as `chat.history` returns them: texts cut at `maxChars`, each message
    /// annotated with `__openclaw {id, seq}` (seq = 1-based position in the transcript).
    func history(_ rawKey: String, limit: Int?, maxChars: Int?) -> [JSONValue] {
        guard let session = session(rawKey) else { return [] }
        let numbered = session.entries.enumerated().map { (seq: $0.offset + 1, entry: $0.element) }
        let window = limit.map { Array(numbered.suffix(max(0, $0))) } ?? numbered
        return window.map { item in
            guard case .object(var members) = Self.truncated(item.entry.message, maxChars: maxChars) else {
                return item.entry.message
            }
            members["__openclaw"] = ["id": .string(item.entry.id), "seq": .int(item.seq)]
            return .object(members)
        }
    }

    /// Texts of the user messages of a session, in order.
    func userTexts(_ rawKey: String) -> [String] {
        (session(rawKey)?.entries ?? []).compactMap { entry in
            guard entry.message["role"]?.stringValue == "user" else { return nil }
            return entry.message["content"]?.stringValue
        }
    }

    private static func truncated(_ message: JSONValue, maxChars: Int?) -> JSONValue {
        guard let maxChars, case .object(var members) = message else { return message }
        if let text = members["content"]?.stringValue {
            members["content"] = .string(cut(text, maxChars))
        } else if let parts = members["content"]?.arrayValue {
            members["content"] = .array(
                parts.map { part in
                    guard case .object(var block) = part else { return part }
                    for field in ["text", "thinking"] {
                        if let text = block[field]?.stringValue { block[field] = .string(cut(text, maxChars)) }
                    }
                    return .object(block)
                })
        }
        return .object(members)
    }

    private static func cut(_ text: String, _ maxChars: Int) -> String {
        text.count > maxChars ? String(text.prefix(maxChars)) + truncationMarker : text
    }
}
