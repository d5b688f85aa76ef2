import OpenClawProtocol

/// One attachment as the test gateway decoded it from a `chat.send`, for tests to compare with what
/// was sent, byte for byte.
public struct ReceivedAttachment: Sendable, Hashable {
    /// The run (idempotency key) of the message it came with.
    public var runId: String
    public var sessionKey: String
    public var fileName: String?
    /// The `type` and `mimeType` the client declared.
    public var declaredType: String?
    public var declaredMimeType: String?
    /// What the bytes are, sniffed as the gateway does.
    public var detectedMimeType: String
    public var bytes: [UInt8]
    /// False when the gateway dropped it without an error (upstream: non-images on protocol 3,
    /// archives), as a real gateway does — the message is still accepted.
    public var kept: Bool
}

/// The attachment limits a test gateway advertises in `hello-ok.policy.attachments` (v4) and enforces.
public struct TestAttachmentLimits: Sendable, Hashable {
    public var maxBytes: Int
    public var maxImageBytes: Int

    public init(maxBytes: Int, maxImageBytes: Int) {
        self.maxBytes = maxBytes
        self.maxImageBytes = maxImageBytes
    }

    /// The values of the upstream docs' example (20 MiB, 6 MiB).
    public static let reference = TestAttachmentLimits(maxBytes: 20_971_520, maxImageBytes: 6_291_456)
}

/// How `chat.history` shows the images of stored messages.
public enum HistoryImageForm: Sendable, Hashable {
    /// `{type: "image", mimeType, omitted: true, bytes}`, `bytes` the length of the base64 the gateway
    /// dropped (upstream `sanitizeChatHistoryContentBlock`).
    case omitted
    /// `{type: "image", mimeType, url: "/api/chat/media/outgoing/<session>/<id>/full"}` (managed media
    /// of later gateways).
    case url
}
