import OpenClawProtocol

/// An attachment without its bytes: what a sent message shows and what the store keeps.
public struct AttachmentSummary: Sendable, Hashable, Codable {
    public var fileName: String
    public var mimeType: String
    public var size: Int

    public init(fileName: String, mimeType: String, size: Int) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.size = size
    }

    public var mediaType: MediaType { MediaType(mimeType: mimeType) }

    /// `[image: photo.jpg, 1.2 MB]`, `[file: report.pdf, 340 kB]`.
    public var label: String {
        "[\(mediaType.isImage ? "image" : "file"): \(fileName), \(ByteCountText.text(size))]"
    }
}
