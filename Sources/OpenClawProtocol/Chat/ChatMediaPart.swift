/// An image or file block of a message, as far as the gateway describes it.
///
/// History never carries the bytes. Images come either as `{type: "image", mimeType, omitted: true,
/// bytes}` — where `bytes` is the length of the base64 text the gateway dropped (upstream
/// `sanitizeChatHistoryContentBlock`), about 4/3 of the file — or with a URL: managed media of later
/// gateways (`/api/chat/media/outgoing/…`, relative to the gateway), `media://…`, or `http(s)`.
/// Files carry a name and a size when the gateway keeps them.
public struct ChatMediaPart: Sendable, Hashable {
    public var mimeType: String?
    public var fileName: String?
    /// The `bytes` member as the gateway wrote it (see the type's note for images).
    public var bytes: Int?
    public var url: String?
    /// The bytes were left out (always, in history).
    public var omitted: Bool
    /// A generated image's stable id (summer 2026 managed images): the bytes are had through
    /// `artifacts.download`, never from the transcript. Kept in the store; the bytes never are.
    public var artifactId: String?

    public init(
        mimeType: String? = nil, fileName: String? = nil, bytes: Int? = nil, url: String? = nil, omitted: Bool = true,
        artifactId: String? = nil
    ) {
        self.mimeType = mimeType
        self.fileName = fileName
        self.bytes = bytes
        self.url = url
        self.omitted = omitted
        self.artifactId = artifactId
    }

    init(json: JSONValue, isImage: Bool) {
        let source = json["source"]
        let url =
            json["url"]?.nonEmptyStringValue ?? json["image_url"]?.nonEmptyStringValue
            ?? json["image_url"]?["url"]?.nonEmptyStringValue
            ?? (source?["type"]?.stringValue == "url" ? source?["url"]?.nonEmptyStringValue : nil)
        self.init(
            mimeType: json["mimeType"]?.nonEmptyStringValue ?? json["mime_type"]?.nonEmptyStringValue
                ?? source?["media_type"]?.nonEmptyStringValue,
            fileName: json["fileName"]?.nonEmptyStringValue ?? json["filename"]?.nonEmptyStringValue
                ?? (isImage ? nil : json["name"]?.nonEmptyStringValue),
            bytes: (json["bytes"] ?? json["size"] ?? json["sizeBytes"])?.lenientIntValue,
            url: url,
            omitted: json["omitted"]?.boolValue ?? (json["data"] == nil && source?["data"] == nil),
            artifactId: json["artifactId"]?.nonEmptyStringValue
        )
    }

    /// The file's size as well as it can be told: for an omitted image, 3/4 of the base64 length.
    public func approximateSize(isImage: Bool) -> Int? {
        guard let bytes else { return nil }
        return isImage && omitted && url == nil ? bytes / 4 * 3 : bytes
    }

    var jsonMembers: [(String, JSONValue?)] {
        [
            ("mimeType", .string(mimeType)), ("fileName", .string(fileName)), ("omitted", .bool(omitted)),
            ("bytes", .int(bytes)), ("url", .string(url)), ("artifactId", .string(artifactId)),
        ]
    }
}
