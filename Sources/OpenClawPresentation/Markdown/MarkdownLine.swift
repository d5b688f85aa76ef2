/// One source line with its indentation measured: the parser decides on `content` and `indent`.
/// Public so that a streaming renderer can find block boundaries with the parser's own rules.
public struct MarkdownLine {
    public let raw: Substring
    /// Leading columns (a tab counts as 4).
    public let indent: Int
    /// The line without its leading whitespace.
    public let content: Substring

    public init(_ raw: Substring) {
        self.raw = raw
        var columns = 0
        var start = raw.startIndex
        while start < raw.endIndex, raw[start] == " " || raw[start] == "\t" {
            columns += raw[start] == "\t" ? 4 : 1
            start = raw.index(after: start)
        }
        self.indent = columns
        self.content = raw[start...]
    }

    public var isBlank: Bool { content.allSatisfy(\.isWhitespace) }

    /// Whether the line can start a block (not a paragraph continuation): at most 3 columns of indent.
    public var isBlockIndent: Bool { indent <= 3 }

    /// `raw` with up to `columns` leading spaces removed (code inside an indented fence).
    public func droppingIndent(upTo columns: Int) -> Substring {
        var removed = 0
        var start = raw.startIndex
        while start < raw.endIndex, removed < columns, raw[start] == " " {
            removed += 1
            start = raw.index(after: start)
        }
        return raw[start...]
    }

    /// `# Title` → (1, "Title"); trailing `#`s are dropped.
    public var atxHeading: (level: Int, text: String)? {
        guard isBlockIndent else { return nil }
        let hashes = content.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = content.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingWhitespace()
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0 {
            let beforeClosing = text.dropLast(closing)
            if beforeClosing.isEmpty || beforeClosing.last == " " { text = beforeClosing.trimmingWhitespace() }
        }
        return (hashes, String(text))
    }

    /// `---`, `* * *`, `___`: three or more of one of these characters and nothing else.
    public var isRule: Bool {
        guard isBlockIndent, let first = content.first, "-*_".contains(first) else { return false }
        var count = 0
        for character in content where !character.isWhitespace {
            guard character == first else { return false }
            count += 1
        }
        return count >= 3
    }

    /// The level of a setext underline (`===` → 1, `---` → 2).
    var setextLevel: Int? {
        guard isBlockIndent, let first = content.first, first == "=" || first == "-" else { return nil }
        let marks = content.trimmingWhitespace()
        guard marks.allSatisfy({ $0 == first }) else { return nil }
        return first == "=" ? 1 : 2
    }

    /// An opening code fence: its character, length and language.
    public var codeFence: (marker: Character, length: Int, language: String?)? {
        guard isBlockIndent, let marker = content.first, marker == "`" || marker == "~" else { return nil }
        let length = content.prefix { $0 == marker }.count
        guard length >= 3 else { return nil }
        let info = content.dropFirst(length).trimmingWhitespace()
        if marker == "`", info.contains("`") { return nil }
        let language = info.split(whereSeparator: \.isWhitespace).first.map(String.init)
        return (marker, length, language)
    }

    /// Whether this line closes a fence opened with `length` × `marker`.
    public func closesFence(marker: Character, length: Int) -> Bool {
        guard isBlockIndent else { return false }
        let run = content.prefix { $0 == marker }.count
        return run >= length && content.dropFirst(run).allSatisfy(\.isWhitespace)
    }

    /// Whether the line starts a list item (`- `, `* `, `+ `, `1. `, `1) `).
    public var isListItem: Bool { isBlockIndent && MarkdownListMarker(self) != nil }

    /// A `>` line's content, without the marker and one following space.
    public var quoteContent: Substring? {
        guard isBlockIndent, content.first == ">" else { return nil }
        let rest = content.dropFirst()
        return rest.first == " " ? rest.dropFirst() : rest
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}

/// What starts a list item: `- `, `* `, `+ `, or `1. ` / `1) `, with an optional task box.
struct MarkdownListMarker {
    let number: Int?
    let text: Substring
    let isChecked: Bool?

    var isOrdered: Bool { number != nil }

    init?(_ line: MarkdownLine) {
        let content = line.content
        guard let first = content.first else { return nil }
        var rest: Substring
        if "-*+".contains(first) {
            rest = content.dropFirst()
            number = nil
        } else {
            let digits = content.prefix { $0.isASCII && $0.isNumber }
            guard (1...9).contains(digits.count), let value = Int(digits) else { return nil }
            let afterDigits = content.dropFirst(digits.count)
            guard let delimiter = afterDigits.first, delimiter == "." || delimiter == ")" else { return nil }
            rest = afterDigits.dropFirst()
            number = value
        }
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        rest = rest.trimmingWhitespace()
        var checked: Bool?
        if rest.hasPrefix("[ ] ") || rest == "[ ]" {
            checked = false
        } else if rest.hasPrefix("[x] ") || rest.hasPrefix("[X] ") || rest == "[x]" || rest == "[X]" {
            checked = true
        }
        if checked != nil { rest = rest.dropFirst(3).trimmingWhitespace() }
        self.text = rest
        self.isChecked = checked
    }
}
