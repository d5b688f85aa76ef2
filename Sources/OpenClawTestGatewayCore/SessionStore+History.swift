import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One `chat.history` answer: the messages and, for v4 paging, whether older ones exist.
struct HistoryWindow: Sendable {
    var messages: [JSONValue]
    /// Older messages exist before the window (v4 `hasMore`).
    var hasMore: Bool
    /// The `offset` that asks for the page before this one (v4 `nextOffset`), when there is one.
    var nextOffset: Int?
}

extension SessionStore {
    /// Marker appended to text cut by `maxChars` (upstream `chat.history` sanitising).
    static let truncationMarker = "\n...(truncated)..."
    /// A message whose JSON is larger than this is replaced by a placeholder (128 KiB).
    static let oversizedMessageBytes = 128 * 1024
    static let oversizedPlaceholder = "[chat.history omitted: message too large]"
    /// The whole page is capped at this many JSON bytes, the oldest messages dropped first (6 MiB,
    /// upstream `getMaxChatHistoryMessagesBytes` / `capArrayByJsonBytes`).
    static let pageBudgetBytes = 6 * 1024 * 1024

    /// The last `limit` messages before the newest `offset` ones, as `chat.history` returns them
    /// (`src/gateway/server-methods/chat.ts` `"chat.history"`): texts cut at `maxChars`, each message
    /// annotated with `__openclaw {id, seq}` (seq = 1-based position in the transcript), a message
    /// over 128 KiB replaced by a placeholder, the page capped at 6 MiB dropping its oldest messages.
    func history(
        _ rawKey: String, limit: Int?, maxChars: Int?, offset: Int = 0, images: HistoryImageForm = .omitted
    ) -> HistoryWindow {
        guard let session = session(rawKey) else { return HistoryWindow(messages: [], hasMore: false) }
        let end = max(0, session.entries.count - max(0, offset))
        let start = limit.map { max(0, end - max(0, $0)) } ?? 0
        let sized: [(message: JSONValue, bytes: Int)] = (start..<end).map { index in
            let entry = session.entries[index]
            let shown = Self.presentingImages(
                Self.truncated(entry.message, maxChars: maxChars), form: images, sessionKey: session.key,
                entryId: entry.id)
            guard case .object(var members) = shown else {
                return (entry.message, Self.jsonBytes(entry.message))
            }
            members["__openclaw"] = Self.entryInfo(entry, seq: index + 1)
            let message = JSONValue.object(members)
            let bytes = Self.jsonBytes(message)
            guard bytes > Self.oversizedMessageBytes else { return (message, bytes) }
            let placeholder = Self.placeholder(for: members)
            return (placeholder, Self.jsonBytes(placeholder))
        }
        var total = sized.reduce(0) { $0 + $1.bytes + 1 }
        var dropped = 0
        while total > Self.pageBudgetBytes, dropped < sized.count {
            total -= sized[dropped].bytes + 1
            dropped += 1
        }
        let messages = sized.dropFirst(dropped).map(\.message)
        let firstShown = start + dropped
        return HistoryWindow(
            messages: messages, hasMore: firstShown > 0,
            nextOffset: firstShown > 0 ? session.entries.count - firstShown : nil)
    }

    private static func placeholder(for members: JSONObject) -> JSONValue {
        .object(dropping: [
            ("role", members["role"]), ("timestamp", members["timestamp"]),
            ("content", [["type": "text", "text": .string(oversizedPlaceholder)]]),
            ("__openclaw", ["truncated": true, "reason": "oversized"]),
        ])
    }

    private static func jsonBytes(_ value: JSONValue) -> Int { JSONSerializer.string(value).utf8.count }

    static func truncated(_ message: JSONValue, maxChars: Int?) -> JSONValue {
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

    /// Image blocks never carry their bytes in history: `data` becomes `omitted` with the base64's
    /// length (upstream `sanitizeChatHistoryContentBlock`), or a managed-media URL.
    static func presentingImages(
        _ message: JSONValue, form: HistoryImageForm, sessionKey: String, entryId: String
    )
        -> JSONValue
    {
        guard case .object(var members) = message, let parts = members["content"]?.arrayValue else { return message }
        var index = 0
        members["content"] = .array(
            parts.map { part in
                guard case .object(var block) = part, block["type"]?.stringValue == "image",
                    let data = block["data"]?.stringValue
                else { return part }
                block["data"] = nil
                index += 1
                switch form {
                case .omitted:
                    block["omitted"] = true
                    block["bytes"] = .int(data.utf8.count)
                case .url:
                    let session = sessionKey.percentEncodingAllButAlphanumerics()
                    block["url"] = .string("/api/chat/media/outgoing/\(session)/\(entryId)-\(index)/full")
                }
                return .object(block)
            })
        return .object(members)
    }

    private static func cut(_ text: String, _ maxChars: Int) -> String {
        text.count > maxChars ? String(text.prefix(maxChars)) + truncationMarker : text
    }
}
