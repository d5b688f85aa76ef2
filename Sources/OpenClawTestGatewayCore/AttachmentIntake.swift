import OpenClawProtocol

/// `chat.send` attachments, read the way upstream reads them (`src/gateway/chat-attachments.ts`
/// `parseMessageWithAttachments`, answered as `INVALID_REQUEST` with `String(err)` in
/// `server-methods/chat.ts`): a label from `fileName`, `type` or the position; `content` a string,
/// trimmed, a `data:…;base64,` prefix stripped, then strictly base64 (`isValidBase64`); decoded size
/// within the limit. Then the bytes are sniffed: protocol 3 keeps images only and drops the rest
/// without an error; this v4 gateway also keeps other files, and drops archives.
struct AttachmentIntake {
    var v4: Bool
    /// Advertised limits (v4); nil means none advertised.
    var limits: TestAttachmentLimits?

    /// A decoded attachment and what the transcript stores for it.
    struct Accepted {
        var received: ReceivedAttachment
        var base64: String
        var mediaType: MediaType
    }

    enum Outcome {
        case accepted([Accepted])
        /// `INVALID_REQUEST` with upstream's message.
        case refused(ErrorShape)
    }

    /// Decoded size ceilings: advertised ones, else upstream's 5,000,000 for v3 and images, 20 MiB for
    /// other files.
    var maxBytes: Int { v4 ? (limits?.maxBytes ?? 20 * 1024 * 1024) : 5_000_000 }
    var maxImageBytes: Int { v4 ? (limits?.maxImageBytes ?? 5_000_000) : 5_000_000 }

    func read(_ list: [JSONValue], runId: String, sessionKey: String) -> Outcome {
        var accepted: [Accepted] = []
        for (index, item) in list.enumerated() {
            guard item.objectValue != nil else { continue }
            let fileName = item["fileName"]?.nonEmptyStringValue
            let type = item["type"]?.nonEmptyStringValue
            let label = fileName ?? type ?? "attachment-\(index + 1)"
            guard let raw = item["content"]?.stringValue else {
                return .refused(Self.invalid("attachment \(label): content must be base64 string"))
            }
            let base64 = Self.strippingDataURL(raw.trimmingCharacters(in: " \t\n\r"))
            guard let bytes = Base64.decodeStrict(Array(base64.utf8)) else {
                return .refused(Self.invalid("attachment \(label): invalid base64 content"))
            }
            let sniffed = MediaType.detect(prefix: bytes.prefix(MediaType.sniffLength), fileName: fileName ?? "")
            let limit = sniffed.isImage ? maxImageBytes : maxBytes
            guard bytes.count <= limit else {
                return .refused(
                    Self.invalid("attachment \(label): exceeds size limit (\(bytes.count) > \(limit) bytes)"))
            }
            let kept = sniffed.isImage || (v4 && sniffed.kind != .archive)
            accepted.append(
                Accepted(
                    received: ReceivedAttachment(
                        runId: runId, sessionKey: sessionKey, fileName: fileName, declaredType: type,
                        declaredMimeType: item["mimeType"]?.stringValue, detectedMimeType: sniffed.mimeType,
                        bytes: bytes, kept: kept),
                    base64: base64, mediaType: sniffed))
        }
        return .accepted(accepted)
    }

    private static func invalid(_ message: String) -> ErrorShape {
        ErrorShape(code: .invalidRequest, message: "Error: \(message)")
    }

    /// `^data:[^;]+;base64,(.*)$`
    static func strippingDataURL(_ text: String) -> String {
        guard text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") else { return text }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma]
        guard header.hasSuffix(";base64"), !header.dropLast(7).isEmpty, !header.dropLast(7).contains(";") else {
            return text
        }
        return String(text[text.index(after: comma)...])
    }

    /// The user message's content as the transcript keeps it: the text, then each kept attachment —
    /// images with their base64 (history later omits it or links it), other files by name and size.
    static func content(text: String, attachments: [Accepted]) -> JSONValue {
        var blocks: [JSONValue] = text.isEmpty ? [] : [["type": "text", "text": .string(text)]]
        for attachment in attachments where attachment.received.kept {
            if attachment.mediaType.isImage {
                blocks.append([
                    "type": "image", "mimeType": .string(attachment.mediaType.mimeType),
                    "data": .string(attachment.base64),
                ])
            } else {
                blocks.append(
                    .object(dropping: [
                        ("type", "file"), ("fileName", .string(attachment.received.fileName)),
                        ("mimeType", .string(attachment.mediaType.mimeType)),
                        ("bytes", .int(attachment.received.bytes.count)),
                    ]))
            }
        }
        return .array(blocks)
    }
}
