import OpenClawChat
import OpenClawProtocol

/// The store refused to keep a message's files: the outbox would hold more than
/// ``ChatStoreLimits/maxOutboxAttachmentBytes`` of files waiting to be sent.
public struct OutboxFilesOverLimit: OutboxRefusal, Sendable, Hashable {
    /// What the message's files add up to.
    public var messageBytes: Int
    /// What the outbox already holds for other messages.
    public var heldBytes: Int
    public var limit: Int

    public var description: String {
        "the files waiting to be sent would take \(ByteCountText.text(heldBytes + messageBytes)) on this device, "
            + "over its \(ByteCountText.text(limit)) limit"
    }
}
