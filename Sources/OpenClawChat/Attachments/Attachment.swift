import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the person chose to send, before it is sent: where its bytes are, its name, its type as the
/// bytes say, and its size.
///
/// A file stays on disk until its frame is written (then it is read in chunks straight into the
/// frame), so choosing a 20 MB video costs nothing until it is sent. The type comes from the first
/// bytes, as the gateway will decide it; a declared type (`--mime`, the photo picker's UTType) is used
/// only when the bytes say nothing more specific than "binary".
public struct Attachment: Sendable, Hashable, Identifiable {
    /// Where the bytes are until they are sent.
    public enum Source: Sendable, Hashable {
        /// In memory (a photo from the picker, standard input).
        case bytes([UInt8])
        /// In a file, read in chunks when the frame is written.
        case file(URL)
    }

    public let id: String
    public var fileName: String
    public var mediaType: MediaType
    /// Decoded size in bytes.
    public var size: Int
    public var source: Source

    public init(id: String = UUID().uuidString, fileName: String, mediaType: MediaType, size: Int, source: Source) {
        self.id = id
        self.fileName = fileName
        self.mediaType = mediaType
        self.size = size
        self.source = source
    }

    /// Bytes already in memory (stdin, a picked photo), typed from their first bytes.
    public init(bytes: [UInt8], fileName: String, declaredType: MediaType? = nil) {
        let sniffed = MediaType.detect(prefix: bytes.prefix(MediaType.sniffLength), fileName: fileName)
        self.init(
            fileName: fileName, mediaType: Self.resolve(sniffed: sniffed, declared: declaredType), size: bytes.count,
            source: .bytes(bytes))
    }

    /// A file on disk: its size from the file system, its type from its first bytes. Nothing else is read.
    public static func file(at url: URL, declaredType: MediaType? = nil) throws(AttachmentError) -> Attachment {
        let name = url.lastPathComponent
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(fileName: name, reason: lastErrorText()) }
        defer { close(descriptor) }
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw .unreadable(fileName: name, reason: lastErrorText())
        }
        var head = [UInt8](repeating: 0, count: MediaType.sniffLength)
        let read = head.withUnsafeMutableBytes { buffer in
            Result { () throws(AttachmentError) -> Int in try fill(buffer, from: descriptor, fileName: name) }
        }
        let filled = try read.get()
        let sniffed = MediaType.detect(prefix: head.prefix(filled), fileName: name)
        return Attachment(
            fileName: name, mediaType: resolve(sniffed: sniffed, declared: declaredType), size: Int(size),
            source: .file(url))
    }

    static func resolve(sniffed: MediaType, declared: MediaType?) -> MediaType {
        guard let declared, sniffed == .octetStream || (sniffed == .plainText && !declared.isImage) else {
            return sniffed
        }
        return declared
    }

    /// `errno` in words, lowercased as the rest of the message ("no such file or directory").
    static func lastErrorText() -> String {
        String(cString: strerror(errno)).lowercased()
    }

    /// Reads from `descriptor` until `buffer` is full or the file ends; how many bytes it read.
    static func fill(
        _ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, fileName: String
    ) throws(AttachmentError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let count = read(descriptor, base + filled, buffer.count - filled)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(fileName: fileName, reason: lastErrorText()) }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    public var kind: MediaType.Kind { mediaType.kind }

    /// What the frame writer reads from.
    public var outgoing: OutgoingAttachment {
        let bytes: any AttachmentByteSource =
            switch source {
            case .bytes(let bytes): InMemoryAttachmentBytes(bytes)
            case .file(let url): FileAttachmentBytes(url: url, fileName: fileName)
            }
        return OutgoingAttachment(fileName: fileName, mediaType: mediaType, size: size, source: bytes)
    }

    /// What the transcript and the store keep of it: everything but the bytes.
    public var summary: AttachmentSummary {
        AttachmentSummary(fileName: fileName, mimeType: mediaType.mimeType, size: size)
    }
}

extension AttachmentLimits {
    /// Refuses an attachment the gateway would refuse or drop (`check(fileName:mediaType:size:)` on its parts).
    public func check(_ attachment: Attachment) throws(AttachmentError) {
        try check(fileName: attachment.fileName, mediaType: attachment.mediaType, size: attachment.size)
    }
}

/// Reads a file in chunks of 768 KiB (a multiple of 3, so base64 groups never straddle chunks), reusing
/// one buffer: the file is never in memory whole.
struct FileAttachmentBytes: AttachmentByteSource {
    let url: URL
    let fileName: String
    static let chunkSize = 3 * 256 * 1024

    func readChunks(_ body: (UnsafeRawBufferPointer) throws(AttachmentError) -> Void) throws(AttachmentError) -> Int {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw .unreadable(fileName: fileName, reason: Attachment.lastErrorText())
        }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let filled = try Attachment.fill(buffer, from: descriptor, fileName: fileName)
            guard filled > 0 else { return total }
            total += filled
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
            if filled < Self.chunkSize { return total }
        }
    }
}
