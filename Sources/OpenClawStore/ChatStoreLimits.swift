/// How much a ``SQLiteChatStore`` keeps.
///
/// The store is a cache of what the gateway holds (the gateway's transcript is the source of truth),
/// so bounding it costs nothing but a refetch, and keeps the file, and every query on it, small on a
/// phone.
public struct ChatStoreLimits: Sendable, Hashable {
    /// Sessions kept per gateway; beyond it the least recently recorded sessions are dropped.
    public var maxSessionsPerGateway: Int
    /// Messages kept per session; beyond it the oldest messages are dropped.
    public var maxMessagesPerSession: Int
    /// Bytes of files the outbox keeps for messages waiting to be sent (200 MB: ten messages at a
    /// gateway's 20 MB limit). Unlike transcripts these are not a cache: a message over the bound is
    /// refused by the store (and stays in memory only, which the app says), never dropped later.
    public var maxOutboxAttachmentBytes: Int

    public init(
        maxSessionsPerGateway: Int = 100, maxMessagesPerSession: Int = 10_000,
        maxOutboxAttachmentBytes: Int = 200_000_000
    ) {
        self.maxSessionsPerGateway = maxSessionsPerGateway
        self.maxMessagesPerSession = maxMessagesPerSession
        self.maxOutboxAttachmentBytes = maxOutboxAttachmentBytes
    }
}
