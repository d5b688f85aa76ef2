/// Why an attachment cannot be sent, found before anything goes on the wire.
///
/// Every case names the file, and the size ones the limit and the file's size, so the person can
/// act (pick a smaller photo, send a PDF instead of a zip) instead of guessing.
public enum AttachmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Larger than the gateway's per-attachment limit for its kind.
    case tooLarge(fileName: String, size: Int, limit: Int, kind: MediaType.Kind)
    /// A type the gateway would drop: archives always, non-images on a gateway that takes images only.
    case unsupportedType(fileName: String, mediaType: MediaType, reason: UnsupportedReason)
    /// The whole `chat.send` frame (base64 grows files by a third) would exceed `policy.maxPayload`.
    case frameTooLarge(bytes: Int, limit: Int)
    case empty(fileName: String)
    /// The file could not be read, or changed size between choosing it and sending it.
    case unreadable(fileName: String, reason: String)

    /// Why a gateway would not take a file of that type.
    public enum UnsupportedReason: String, Sendable, Hashable {
        /// An archive (zip, tar …): gateways drop archives.
        case archive
        /// Not an image, and the gateway (protocol 3) takes images only.
        case imagesOnly
    }

    public var description: String {
        switch self {
        case .tooLarge(let name, let size, let limit, let kind):
            let what = kind == .image ? "images" : "files"
            return "\(name) is \(ByteCountText.text(size)); this gateway accepts \(what) up to "
                + "\(ByteCountText.precise(limit))."
        case .unsupportedType(let name, let type, .archive):
            return "\(name) is an archive (\(type)); gateways drop archives. Send the files inside it instead."
        case .unsupportedType(let name, let type, .imagesOnly):
            return "\(name) is \(type); this gateway (protocol 3) accepts images only."
        case .frameTooLarge(let bytes, let limit):
            return "The message with its attachments would be \(ByteCountText.text(bytes)) on the wire; this "
                + "gateway accepts at most \(ByteCountText.precise(limit)) per message."
        case .empty(let name):
            return "\(name) is empty."
        case .unreadable(let name, let reason):
            return "\(name) could not be read: \(reason)."
        }
    }
}
