/// What a gateway accepts as attachments, negotiated at the handshake.
///
/// - v4 gateways since August 2026 advertise `hello-ok.policy.attachments {maxBytes, maxImageBytes}`
///   (decoded bytes per attachment).
/// - v4 gateways that do not advertise them: 20 MiB per file and 5,000,000 bytes per image (the
///   official Swift client's `legacyClientFallback`).
/// - v3 gateways take images only, at most 5,000,000 decoded bytes each (`parseMessageWithAttachments`),
///   and drop anything else without telling the sender.
///
/// Every limit is also capped by the frame: the whole `chat.send` must fit `policy.maxPayload`, and
/// base64 turns 3 bytes into 4. Upstream reserves 256 KiB for the envelope and converts the rest
/// (`GatewayAttachmentLimits.advertisedAttachmentLimits`); the same rule is used here, so a file
/// accepted by these limits is never refused as a too-large frame on its own.
public struct AttachmentLimits: Sendable, Hashable {
    public static let fallbackMaxBytes = 20 * 1024 * 1024
    public static let fallbackMaxImageBytes = 5_000_000
    /// Bytes of the frame kept for everything but the attachments' content.
    public static let envelopeReserve = 256 * 1024

    public var maxBytes: Int
    public var maxImageBytes: Int
    /// Only images are accepted (protocol 3).
    public var imagesOnly: Bool
    /// The gateway's `policy.maxPayload`: the whole frame's ceiling.
    public var maxPayload: Int
    /// Whether the gateway advertised its limits (otherwise the fallbacks above stand in).
    public var advertised: Bool

    public init(maxBytes: Int, maxImageBytes: Int, imagesOnly: Bool, maxPayload: Int, advertised: Bool) {
        let ceiling = Self.decodedCeiling(maxPayload: maxPayload)
        self.maxBytes = min(maxBytes, ceiling)
        self.maxImageBytes = min(maxImageBytes, maxBytes, ceiling)
        self.imagesOnly = imagesOnly
        self.maxPayload = maxPayload
        self.advertised = advertised
    }

    /// Before any handshake: the defaults of a v4 gateway that advertises nothing.
    public static let notNegotiated = AttachmentLimits(
        maxBytes: fallbackMaxBytes, maxImageBytes: fallbackMaxImageBytes, imagesOnly: false,
        maxPayload: GatewayLimits.defaultMaxPayloadBytes, advertised: false)

    /// The limits for a gateway that answered `hello`.
    public init(hello: HelloOk) {
        let policy = hello.policy
        if hello.protocolNumber < ProtocolVersion.v4.rawValue {
            self.init(
                maxBytes: Self.fallbackMaxImageBytes, maxImageBytes: Self.fallbackMaxImageBytes, imagesOnly: true,
                maxPayload: policy.maxPayload, advertised: false)
        } else if let maxBytes = policy.attachmentMaxBytes, let maxImageBytes = policy.attachmentMaxImageBytes {
            self.init(
                maxBytes: maxBytes, maxImageBytes: maxImageBytes, imagesOnly: false, maxPayload: policy.maxPayload,
                advertised: true)
        } else {
            self.init(
                maxBytes: Self.fallbackMaxBytes, maxImageBytes: Self.fallbackMaxImageBytes, imagesOnly: false,
                maxPayload: policy.maxPayload, advertised: false)
        }
    }

    /// The largest decoded size whose base64 fits `maxPayload` less the envelope reserve.
    public static func decodedCeiling(maxPayload: Int) -> Int {
        let available = max(0, maxPayload - envelopeReserve)
        return available / 4 * 3 + available % 4 * 3 / 4
    }

    /// The per-attachment limit for a kind.
    public func limit(for kind: MediaType.Kind) -> Int { kind == .image ? maxImageBytes : maxBytes }

    /// Checks one attachment: not empty, a type the gateway keeps, within its kind's limit.
    public func check(fileName: String, mediaType: MediaType, size: Int) throws(AttachmentError) {
        guard size > 0 else { throw .empty(fileName: fileName) }
        if mediaType.kind == .archive {
            throw .unsupportedType(fileName: fileName, mediaType: mediaType, reason: .archive)
        }
        if imagesOnly, !mediaType.isImage {
            throw .unsupportedType(fileName: fileName, mediaType: mediaType, reason: .imagesOnly)
        }
        let limit = limit(for: mediaType.kind)
        guard size <= limit else { throw .tooLarge(fileName: fileName, size: size, limit: limit, kind: mediaType.kind) }
    }
}
