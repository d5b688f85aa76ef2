/// Where an attachment's bytes come from when its frame is written: memory, or a file read in chunks
/// (so a 20 MB file is never held whole next to its base64).
public protocol AttachmentByteSource: Sendable {
    /// Hands every byte to `body`, in order, in chunks of any size, and returns how many there were.
    func readChunks(_ body: (UnsafeRawBufferPointer) throws(AttachmentError) -> Void) throws(AttachmentError) -> Int
}

/// Bytes already in memory (a photo from the picker, stdin).
public struct InMemoryAttachmentBytes: AttachmentByteSource {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func readChunks(
        _ body: (UnsafeRawBufferPointer) throws(AttachmentError) -> Void
    ) throws(AttachmentError)
        -> Int
    {
        var failure: AttachmentError?
        bytes.withUnsafeBytes { buffer in
            do throws(AttachmentError) { try body(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes.count
    }
}

/// One attachment as `chat.send` carries it: `{type, mimeType, fileName, content}`, `content` the
/// standard padded base64 of the bytes (the gateway validates it strictly). The same shape for
/// protocol 3 and 4; which types a gateway keeps is ``AttachmentLimits``' business.
public struct OutgoingAttachment: Sendable {
    public var fileName: String
    public var mediaType: MediaType
    /// Decoded size in bytes, as checked against the limits.
    public var size: Int
    public var source: any AttachmentByteSource

    public init(fileName: String, mediaType: MediaType, size: Int, source: any AttachmentByteSource) {
        self.fileName = fileName
        self.mediaType = mediaType
        self.size = size
        self.source = source
    }

    /// The members around `content`, in the serializer's (sorted) order: `{"content":"` … `",…}`.
    var head: [UInt8] { Array(#"{"content":""#.utf8) }

    var tail: [UInt8] {
        var bytes = Array(#"","fileName":"#.utf8)
        JSONSerializer.writeString(fileName, into: &bytes)
        bytes.append(contentsOf: #","mimeType":"#.utf8)
        JSONSerializer.writeString(mediaType.mimeType, into: &bytes)
        bytes.append(contentsOf: #","type":"#.utf8)
        JSONSerializer.writeString(mediaType.attachmentType, into: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The object without its bytes, for traces: `content` is replaced by a note of its size.
    public var summary: JSONValue {
        [
            "type": .string(mediaType.attachmentType), "mimeType": .string(mediaType.mimeType),
            "fileName": .string(fileName), "content": .string("<\(size) bytes, base64>"),
        ]
    }
}
