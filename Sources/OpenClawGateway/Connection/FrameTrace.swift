import OpenClawProtocol

/// One raw frame as seen on the socket, for `--trace` and debug views. The text is already redacted.
public struct FrameTrace: Sendable {
    /// Whether the frame came from the gateway or went to it.
    public enum Direction: Sendable { case inbound, outbound }
    /// Whether the frame came from the gateway or went to it.
    public let direction: Direction
    /// The frame's text, secrets replaced.
    public let text: String
}

/// Removes secrets from frames before they are shown or logged: gateway tokens and passwords,
/// device tokens, signatures and private keys, wherever they appear in the document.
public enum FrameRedactor {
    static let secretKeys: Set<String> = [
        "token", "deviceToken", "password", "bootstrapToken", "signature", "privateKey",
        "approvalRuntimeToken", "agentRuntimeIdentityToken",
    ]

    public static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result = JSONObject(minimumCapacity: members.count)
            for (key, member) in members {
                if secretKeys.contains(key), member.isNull == false {
                    result[key] = "<redacted>"
                } else {
                    result[key] = redact(member)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map(redact))
        default:
            return value
        }
    }

    /// Redacted JSON text for a raw frame; text that is not JSON is replaced by its length only, since
    /// nothing can be said about what it contains.
    public static func redactedText(_ text: String) -> String {
        guard let json = try? JSONParser().parse(text) else { return "<\(text.utf8.count) bytes, not JSON>" }
        return JSONSerializer.string(redact(json))
    }
}
