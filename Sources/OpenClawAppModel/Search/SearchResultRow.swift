import OpenClawChat
import OpenClawProtocol

/// One search result: where it is (session, message) and the matching passage.
public struct SearchResultRow: Sendable, Equatable, Identifiable {
    /// A piece of the snippet; matches are highlighted.
    public struct Part: Sendable, Equatable {
        public let text: String
        public let isMatch: Bool
    }

    public let sessionKey: String
    public let messageID: String
    public let role: ChatRole
    /// The passage with its matches marked as the store marks them (`[match]`).
    public let snippet: String
    public let timestampMs: Int?

    public var id: String { "\(sessionKey)\u{1F}\(messageID)" }

    public init(_ hit: SearchHit) {
        sessionKey = hit.sessionKey
        messageID = hit.messageId
        role = hit.role
        snippet = hit.snippet
        timestampMs = hit.timestampMs
    }

    /// The snippet split at the store's `[` `]` match markers, for highlighting.
    public var parts: [Part] {
        var parts: [Part] = []
        var rest = Substring(snippet)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            if open > rest.startIndex { parts.append(Part(text: String(rest[..<open]), isMatch: false)) }
            let match = rest[rest.index(after: open)..<close]
            if !match.isEmpty { parts.append(Part(text: String(match), isMatch: true)) }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(Part(text: String(rest), isMatch: false)) }
        return parts
    }
}
