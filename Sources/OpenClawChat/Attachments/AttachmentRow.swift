import OpenClawProtocol

/// An image or file of a transcript row, typed for display: what it is, its name and size when known,
/// and where its bytes are (nowhere on this device once sent, a gateway URL, or still local).
public struct AttachmentRow: Sendable, Hashable {
    /// Where the attachment's bytes can be had.
    public enum Availability: Sendable, Hashable {
        /// The gateway dropped the bytes from history (the usual case).
        case omitted
        /// The gateway serves it at this URL (`/api/chat/media/outgoing/…` relative to the gateway,
        /// `media://…`, `http(s)://…`).
        case url(String)
        /// Sent from this device, not confirmed by history yet.
        case local
    }

    public var isImage: Bool
    public var fileName: String?
    public var mimeType: String?
    /// Decoded size in bytes when known (approximate for an omitted image: see `ChatMediaPart`).
    public var size: Int?
    public var availability: Availability
    /// A generated image's `artifactId`: its bytes are had through `artifacts.download` on demand.
    public var artifactId: String?

    public init(isImage: Bool, fileName: String?, mimeType: String?, size: Int?, availability: Availability) {
        self.isImage = isImage
        self.fileName = fileName
        self.mimeType = mimeType
        self.size = size
        self.availability = availability
    }

    /// A file sent from this device, before history confirms it.
    public init(local: AttachmentSummary) {
        self.init(
            isImage: local.mediaType.isImage, fileName: local.fileName, mimeType: local.mimeType, size: local.size,
            availability: .local)
    }

    /// A history part; the name and size of the matching local attachment fill what history leaves out.
    init(part: ChatMediaPart, isImage: Bool, local: AttachmentSummary?) {
        self.init(
            isImage: isImage, fileName: part.fileName ?? local?.fileName, mimeType: part.mimeType ?? local?.mimeType,
            size: local?.size ?? part.approximateSize(isImage: isImage),
            availability: part.url.map(Availability.url) ?? .omitted)
        artifactId = part.artifactId
    }

    /// The attachments of a gateway message, in order.
    public static func rows(of message: ChatMessage, local: [AttachmentSummary] = []) -> [AttachmentRow] {
        let parts = message.content.compactMap(\.media)
        guard !parts.isEmpty else { return local.map(AttachmentRow.init(local:)) }
        return parts.enumerated().map { index, media in
            AttachmentRow(part: media.part, isImage: media.isImage, local: index < local.count ? local[index] : nil)
        }
    }

    /// `[image: photo.jpg, 1.2 MB]`; the type stands in for a missing name, the size is left out when unknown.
    public var label: String {
        var text = "[\(isImage ? "image" : "file"): \(fileName ?? mimeType ?? "unnamed")"
        if let size { text += ", \(ByteCountText.text(size))" }
        return text + "]"
    }
}
