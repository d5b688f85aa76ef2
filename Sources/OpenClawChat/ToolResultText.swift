import OpenClawProtocol

/// A tool's result as text a person can read under its step, kept short: results can be whole files or
/// command outputs of megabytes, and a transcript holds every step of every reply.
public enum ToolResultText {
    /// Characters kept of a result; what is cut is marked with `…`.
    public static let limit = 4000

    /// The readable text of a result as the gateway sends it: a string; `{content: [{type: "text",
    /// text}]}` (the agent's tool-result shape), its text blocks joined; else the JSON itself, compact.
    /// Nil for `null` and for a result with nothing in it.
    static func text(of result: JSONValue) -> String? {
        switch result {
        case .null: return nil
        case .string(let text): return text.isEmpty ? nil : cut(text)
        default: break
        }
        if let blocks = result["content"]?.arrayValue {
            let texts = blocks.compactMap { $0["type"] == "text" ? $0["text"]?.stringValue : nil }
            if !texts.isEmpty { return cut(texts.joined(separator: "\n")) }
        }
        return cut(JSONSerializer.string(result))
    }

    /// `text` cut to ``limit`` characters, and `…` after them.
    static func cut(_ text: String) -> String {
        ToolCallSummary.truncated(text, limit: limit + 1)
    }
}
