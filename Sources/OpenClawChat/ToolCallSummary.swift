import OpenClawProtocol

/// Turns a tool call into one readable line, e.g. `exec: curl -s https://example.com/…`.
///
/// Tools name their main argument differently (`command`, `url`, `path`, `query` ...), so the most
/// telling one is picked by name, falling back to the first string argument and finally to compact
/// JSON. Whitespace runs (newlines in scripts above all) collapse to one space so the line stays a
/// line, and the result is cut to `limit` characters with an ellipsis.
public enum ToolCallSummary {
    public static let defaultLimit = 80

    /// Argument names in the order they are preferred as the summary of a call.
    package static let preferredKeys = [
        "command", "cmd", "script", "url", "query", "q", "path", "file_path", "filePath", "file", "pattern",
        "prompt", "text", "message", "name", "id",
    ]

    public static func line(name: String, arguments: JSONValue?, limit: Int = defaultLimit) -> String {
        let argument = argumentText(arguments).map { collapsingWhitespace($0, maxCharacters: limit + 1) }
        guard let argument, !argument.isEmpty else {
            return truncated(name, limit: limit)
        }
        return truncated("\(name): \(argument)", limit: limit)
    }

    /// The most telling argument as text, or nil for no arguments.
    static func argumentText(_ arguments: JSONValue?) -> String? {
        guard let arguments else { return nil }
        switch arguments {
        case .null: return nil
        case .string(let text): return text
        case .object(let members):
            if members.isEmpty { return nil }
            for key in preferredKeys {
                if let text = members[key].flatMap({ scalarText($0, numbersCount: true) }) { return text }
            }
            for key in members.keys.sorted() {
                if let text = members[key].flatMap({ scalarText($0, numbersCount: false) }) { return text }
            }
            return JSONSerializer.string(arguments)
        default:
            return JSONSerializer.string(arguments)
        }
    }

    /// A string, or a list of strings joined by spaces (argv style); a number too when the argument's
    /// name says it matters (`id: 42`), but not as a fallback, where a bare number says nothing.
    private static func scalarText(_ value: JSONValue, numbersCount: Bool) -> String? {
        switch value {
        case .string(let text): return text.allSatisfy(\.isWhitespace) ? nil : text
        case .array(let items):
            let words = items.compactMap(\.stringValue)
            return words.isEmpty || words.count != items.count ? nil : words.joined(separator: " ")
        case .int(let number): return numbersCount ? String(number) : nil
        default: return nil
        }
    }

    /// `text` with whitespace runs as single spaces, trimmed, stopping after `maxCharacters` so that
    /// a long script costs no more than the line it becomes.
    package static func collapsingWhitespace(_ text: String, maxCharacters: Int) -> String {
        var result = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if count >= maxCharacters { break }
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace {
                    result.append(" ")
                    count += 1
                }
                pendingSpace = false
                result.append(character)
                count += 1
            }
        }
        return result
    }

    /// `text` cut to `limit` characters, the last an ellipsis. Walks at most `limit` characters, not the
    /// whole text: a tool's result can be megabytes.
    package static func truncated(_ text: String, limit: Int) -> String {
        let limit = max(limit, 2)
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex
        else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}
