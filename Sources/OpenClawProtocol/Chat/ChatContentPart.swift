/// One block of a message's content.
///
/// Unknown block types (`canvas`, or whatever a later gateway adds) are kept whole in
/// ``other(type:raw:)`` so that a newer transcript never fails to decode and a renderer can still show
/// something.
public enum ChatContentPart: Sendable, Hashable {
    case text(String)
    /// The model's reasoning, when the transcript kept it.
    case thinking(String)
    /// A tool invocation. `arguments` is the object the model produced, kept exactly.
    case toolCall(id: String?, name: String, arguments: JSONValue)
    /// An image. History never carries the bytes: it says how large they were, or links them.
    case image(ChatMediaPart)
    /// A file other than an image (a PDF, a log) the gateway kept with the message.
    case file(ChatMediaPart)
    case other(type: String, raw: JSONValue)

    /// An image known by its type and size only (the form `chat.history` gives).
    public static func image(mimeType: String?, omitted: Bool, bytes: Int?) -> ChatContentPart {
        .image(ChatMediaPart(mimeType: mimeType, bytes: bytes, omitted: omitted))
    }

    /// Nil only for a value that is not an object.
    public init?(json: JSONValue) {
        guard json.objectValue != nil else { return nil }
        let type = json["type"]?.stringValue ?? ""
        switch type {
        case "text":
            self = .text(json["text"]?.stringValue ?? "")
        case "thinking", "reasoning":
            self = .thinking(json["thinking"]?.stringValue ?? json["text"]?.stringValue ?? "")
        case "toolCall", "tool_call", "tool_use", "toolUse", "functionCall":
            self = .toolCall(
                id: json["id"]?.nonEmptyStringValue ?? json["toolCallId"]?.nonEmptyStringValue,
                name: json["name"]?.stringValue ?? "tool",
                arguments: json["arguments"] ?? json["input"] ?? .object([:])
            )
        case "image", "image_url", "input_image":
            self = .image(ChatMediaPart(json: json, isImage: true))
        case "file", "document", "input_file":
            self = .file(ChatMediaPart(json: json, isImage: false))
        default:
            self = .other(type: type, raw: json)
        }
    }

    /// The image or file this block describes; nil for every other kind.
    public var media: (part: ChatMediaPart, isImage: Bool)? {
        switch self {
        case .image(let part): (part, true)
        case .file(let part): (part, false)
        default: nil
        }
    }

    /// The visible text of a `text` block; nil for every other kind.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
