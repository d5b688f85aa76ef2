import OpenClawChat
import OpenClawProtocol

/// One search result: where it is (session, message) and the matching passage.
public struct SearchResultRow: Sendable, Equatable, Identifiable {
    /// A piece of the snippet; matches are highlighted.
    public typealias Part = SearchHit.Part

    public let sessionKey: String
    public let messageID: String
    public let role: ChatRole
    /// The passage in pieces, matches marked.
    public let parts: [Part]
    public let timestampMs: Int?

    public var id: String { "\(sessionKey)\u{1F}\(messageID)" }

    public init(_ hit: SearchHit) {
        sessionKey = hit.sessionKey
        messageID = hit.messageId
        role = hit.role
        parts = hit.parts
        timestampMs = hit.timestampMs
    }
}
