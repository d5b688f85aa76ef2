import OpenClawChat
import OpenClawProtocol

/// A tool step expanded: its arguments one per line and the start of its result, cut so that a card
/// fits on a screen whatever the tool returned. The terminal's `/tools` and the app's expanded step
/// show the same card.
public struct ToolCard: Sendable, Equatable {
    /// `command: ls -la`, one per argument, the telling ones first (``ToolCallSummary``'s order), then
    /// by name; a value cut to one line.
    public let argumentLines: [String]
    /// The result's first lines, each cut; empty when the gateway sent no result.
    public let resultLines: [String]
    /// Result lines left out after ``resultLines``.
    public let hiddenResultLines: Int
    /// Whether the gateway sent a result (it strips them unless the session is verbose).
    public let hasResult: Bool

    /// Lines of a result shown, and characters of any one line.
    public static let resultLineLimit = 12
    public static let lineCharacterLimit = 160

    public init(_ step: ActivityStep) {
        argumentLines = Self.argumentLines(step.arguments)
        let result = step.result ?? ""
        hasResult = step.result != nil
        // `\r\n` is one Character: split on any line break, or a Windows tool's output is one line.
        var lines = result.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        resultLines = lines.prefix(Self.resultLineLimit).map { Self.cut($0) }
        hiddenResultLines = max(0, lines.count - Self.resultLineLimit)
    }

    /// Said in place of the result when there are no lines to show: the gateway sent none (it strips
    /// results unless the session is verbose), or the result was empty. Nil when ``resultLines`` hold it.
    public var resultNote: String? {
        guard hasResult else { return "no result: the gateway sends results for verbose sessions only" }
        return resultLines.isEmpty ? "empty result" : nil
    }

    /// `… 40 more lines`, or nil when the whole result is shown.
    public var moreLinesNote: String? {
        hiddenResultLines == 0 ? nil : "… \(hiddenResultLines) more line\(hiddenResultLines == 1 ? "" : "s")"
    }

    static func argumentLines(_ arguments: JSONValue?) -> [String] {
        switch arguments {
        case nil, .null?: return []
        case .object(let members)?:
            let preferred = ToolCallSummary.preferredKeys
            let keys = members.keys.sorted { a, b in
                switch (preferred.firstIndex(of: a), preferred.firstIndex(of: b)) {
                case (let x?, let y?): x < y
                case (_?, nil): true
                case (nil, _?): false
                case (nil, nil): a < b
                }
            }
            return keys.compactMap { key in
                guard let value = members[key] else { return nil }
                let text = value.stringValue ?? JSONSerializer.string(value)
                return cut(
                    "\(key): " + ToolCallSummary.collapsingWhitespace(text, maxCharacters: lineCharacterLimit + 1))
            }
        case let value?:
            let text = value.stringValue ?? JSONSerializer.string(value)
            return [cut(ToolCallSummary.collapsingWhitespace(text, maxCharacters: lineCharacterLimit + 1))]
        }
    }

    static func cut(_ line: String) -> String {
        ToolCallSummary.truncated(line, limit: lineCharacterLimit)
    }
}
