/// A `chat.send` with attachments, written straight into the outbound frame.
///
/// Holding the params as a ``JSONValue`` would keep the base64 as a `String`, serialise it into the
/// frame text, and copy that again into the socket's buffer: three copies of a file grown by a third.
/// Instead the frame's exact size is computed first, the connection allocates one buffer of that size,
/// and ``writeFrame(id:into:)`` fills it, encoding each file's bytes as they are read.
public struct ChatSendRequest: Sendable {
    public var params: ChatSendParams
    public var attachments: [OutgoingAttachment]

    public init(params: ChatSendParams, attachments: [OutgoingAttachment]) {
        self.params = params
        self.attachments = attachments
    }

    public var method: String { ChatSendParams.method }

    /// The params as traces show them: attachments without their bytes.
    public var summary: JSONValue {
        guard case .object(var members) = params.json else { return params.json }
        if !attachments.isEmpty { members["attachments"] = .array(attachments.map(\.summary)) }
        return .object(members)
    }

    /// The frame's size in bytes for request `id`.
    public func frameByteCount(id: String) -> Int {
        let (prefix, suffix) = envelope(id: id)
        return prefix.count + attachmentsByteCount + suffix.count
    }

    /// `"attachments":[…],` — every item, the commas between them, and the comma before the next member.
    var attachmentsByteCount: Int {
        guard !attachments.isEmpty else { return 0 }
        let items = attachments.reduce(0) { $0 + $1.head.count + Base64.encodedCount($1.size) + $1.tail.count }
        return #""attachments":["#.utf8.count + items + (attachments.count - 1) + "],".utf8.count
    }

    /// Writes the frame into `buffer`, which holds exactly ``frameByteCount(id:)`` bytes. Fails when a
    /// source yields more or fewer bytes than its recorded size (the file changed since it was checked).
    public func writeFrame(id: String, into buffer: UnsafeMutableRawBufferPointer) throws(AttachmentError) {
        let (prefix, suffix) = envelope(id: id)
        var cursor = FrameCursor(buffer: buffer)
        cursor.append(prefix)
        if !attachments.isEmpty {
            cursor.append(Array(#""attachments":["#.utf8))
            for (index, attachment) in attachments.enumerated() {
                if index > 0 { cursor.append([UInt8(ascii: ",")]) }
                cursor.append(attachment.head)
                try cursor.appendBase64(of: attachment)
                cursor.append(attachment.tail)
            }
            cursor.append(Array("],".utf8))
        }
        cursor.append(suffix)
        precondition(cursor.offset == buffer.count, "frame size mismatch")
    }

    /// The frame without attachments, split right after `"params":{` where they go. The serializer
    /// sorts keys, and `attachments` sorts before every other `chat.send` member, so the result is
    /// exactly what serialising the whole frame would give.
    private func envelope(id: String) -> (prefix: [UInt8], suffix: [UInt8]) {
        let bytes = JSONSerializer.bytes(RequestFrame(id: id, method: method, params: params.json).json)
        let marker = Array(#""params":{"#.utf8)
        guard let start = bytes.firstRange(of: marker) else { return (bytes, []) }
        return (Array(bytes[..<start.upperBound]), Array(bytes[start.upperBound...]))
    }
}

/// A write position in the frame buffer.
struct FrameCursor {
    let buffer: UnsafeMutableRawBufferPointer
    var offset = 0

    mutating func append(_ bytes: [UInt8]) {
        precondition(offset + bytes.count <= buffer.count, "frame overflow")
        bytes.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + source.count]).copyMemory(from: source)
        }
        offset += bytes.count
    }

    /// Encodes the source's bytes as they come, carrying up to two bytes between chunks so every
    /// encoded group but the last is a whole one.
    mutating func appendBase64(of attachment: OutgoingAttachment) throws(AttachmentError) {
        let end = offset + Base64.encodedCount(attachment.size)
        var carry: [UInt8] = []
        var read = 0
        let changed = AttachmentError.unreadable(fileName: attachment.fileName, reason: "it changed while being sent")
        var position = offset
        let buffer = self.buffer
        func encode(_ chunk: UnsafeRawBufferPointer) throws(AttachmentError) {
            guard position + Base64.encodedCount(chunk.count) <= end else { throw changed }
            position += Base64.encode(
                chunk, into: UnsafeMutableRawBufferPointer(rebasing: buffer[position..<buffer.count]))
        }
        func encodeCarry() throws(AttachmentError) {
            var failure: AttachmentError?
            carry.withUnsafeBytes { bytes in
                do throws(AttachmentError) { try encode(bytes) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        _ = try attachment.source.readChunks { (chunk) throws(AttachmentError) in
            read += chunk.count
            guard read <= attachment.size else { throw changed }
            var rest = chunk
            if !carry.isEmpty {
                let take = min(3 - carry.count, rest.count)
                carry.append(contentsOf: rest.prefix(take))
                rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(take))
                guard carry.count == 3 else { return }
                try encodeCarry()
                carry.removeAll(keepingCapacity: true)
            }
            let whole = rest.count / 3 * 3
            if whole > 0 { try encode(UnsafeRawBufferPointer(rebasing: rest.prefix(whole))) }
            carry.append(contentsOf: rest.dropFirst(whole))
        }
        if !carry.isEmpty { try encodeCarry() }
        guard read == attachment.size, position == end else { throw changed }
        offset = end
    }
}
