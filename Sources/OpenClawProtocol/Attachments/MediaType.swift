/// What a file is, decided from its first bytes (and, where bytes cannot tell, its name).
///
/// Gateways sniff the bytes themselves and trust them over the declared type (upstream
/// `chat-attachments.ts`: a mismatch is logged and the sniffed type wins; a non-image sniffed on a
/// gateway that takes images only is dropped without a word). Detecting the same way here lets us
/// refuse before sending what the gateway would silently drop, and apply the image limit to images.
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// The MIME type we send as `mimeType`, lowercased, without parameters.
    public var mimeType: String

    public init(mimeType: String) {
        let bare = mimeType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        self.mimeType = bare.trimmingSpaces().lowercased()
    }

    public static let octetStream = MediaType(mimeType: "application/octet-stream")
    public static let plainText = MediaType(mimeType: "text/plain")

    /// The broad kind that decides which limit applies and what a gateway does with it.
    public enum Kind: String, Sendable, Hashable {
        case image
        /// zip, gzip, 7z, rar: gateways drop them.
        case archive
        case file
    }

    public var kind: Kind {
        if mimeType.hasPrefix("image/") { return .image }
        if Self.archiveTypes.contains(mimeType) { return .archive }
        return .file
    }

    public var isImage: Bool { kind == .image }

    /// The `type` member of a `chat.send` attachment (`image` or `file`, as the official clients send).
    public var attachmentType: String { isImage ? "image" : "file" }

    public var description: String { mimeType }

    static let archiveTypes: Set<String> = [
        "application/zip", "application/gzip", "application/x-gzip", "application/x-7z-compressed",
        "application/vnd.rar", "application/x-rar-compressed",
    ]

    /// How many leading bytes ``detect(prefix:fileName:)`` looks at.
    public static let sniffLength = 8192

    /// The type of a file from its first bytes (``sniffLength`` is enough) and its name. Magic numbers
    /// decide first; text is recognised as valid UTF-8 without NUL or stray control bytes; the name
    /// only refines what bytes cannot tell apart (an Office document is a zip; Markdown is text).
    public static func detect(prefix: some Collection<UInt8>, fileName: String) -> MediaType {
        let head = Array(prefix.prefix(sniffLength))
        let ext = fileName.fileExtension
        if let magic = magicType(head) {
            if magic.mimeType == "application/zip", let office = zipContainerTypes[ext] {
                return MediaType(mimeType: office)
            }
            return magic
        }
        if looksLikeText(head) {
            return MediaType(mimeType: textTypes[ext] ?? "text/plain")
        }
        return .octetStream
    }

    private static func magicType(_ b: [UInt8]) -> MediaType? {
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + sig.count && Array(b[offset..<offset + sig.count]) == sig
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return MediaType(mimeType: "image/png") }
        if starts([0xFF, 0xD8, 0xFF]) { return MediaType(mimeType: "image/jpeg") }
        if ascii("GIF87a") || ascii("GIF89a") { return MediaType(mimeType: "image/gif") }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return MediaType(mimeType: "image/webp") }
        if ascii("ftyp", at: 4), b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "hevc", "hevx", "heim", "heis": return MediaType(mimeType: "image/heic")
            case "mif1", "msf1": return MediaType(mimeType: "image/heif")
            case "avif", "avis": return MediaType(mimeType: "image/avif")
            case "M4A ": return MediaType(mimeType: "audio/mp4")
            case "qt  ": return MediaType(mimeType: "video/quicktime")
            default: return MediaType(mimeType: "video/mp4")
            }
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            return MediaType(mimeType: "image/tiff")
        }
        if ascii("BM"), b.count >= 26 { return MediaType(mimeType: "image/bmp") }
        if ascii("%PDF-") { return MediaType(mimeType: "application/pdf") }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) {
            return MediaType(mimeType: "application/zip")
        }
        if starts([0x1F, 0x8B]) { return MediaType(mimeType: "application/gzip") }
        if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return MediaType(mimeType: "application/x-7z-compressed") }
        if ascii("Rar!\u{1A}\u{07}") { return MediaType(mimeType: "application/vnd.rar") }
        if ascii("ID3") || starts([0xFF, 0xFB]) { return MediaType(mimeType: "audio/mpeg") }
        if ascii("OggS") { return MediaType(mimeType: "audio/ogg") }
        if ascii("RIFF"), ascii("WAVE", at: 8) { return MediaType(mimeType: "audio/wav") }
        return nil
    }

    /// Valid UTF-8 (a sequence cut by the end of the prefix allowed), no NUL, and control bytes other
    /// than tab, newline, carriage return and form feed in under 1 % of the bytes.
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, !bytes.contains(0) else { return false }
        let controls = bytes.lazy.filter { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }.count
        guard controls * 100 <= bytes.count else { return false }
        var end = bytes.count
        // Drop an incomplete trailing sequence the sniff window cut.
        var back = 0
        while back < 3, end - back - 1 >= 0, bytes[end - back - 1] & 0xC0 == 0x80 { back += 1 }
        if end - back - 1 >= 0, bytes[end - back - 1] >= 0xC0 {
            let lead = bytes[end - back - 1]
            let needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1
            if back < needed { end -= back + 1 }
        }
        var decoder = UTF8()
        var iterator = bytes[..<end].makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private static let textTypes: [String: String] = [
        "md": "text/markdown", "markdown": "text/markdown", "csv": "text/csv", "json": "application/json",
        "html": "text/html", "htm": "text/html", "xml": "application/xml", "svg": "image/svg+xml",
        "yaml": "application/yaml", "yml": "application/yaml",
    ]

    private static let zipContainerTypes: [String: String] = [
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "epub": "application/epub+zip",
    ]
}

extension String {
    /// The lowercased text after the last dot of the last path component; empty when there is none.
    var fileExtension: String {
        let name = split(separator: "/").last.map(String.init) ?? self
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
