/// A GitHub-style table. Shown monospaced, as aligned columns of plain text, because a phone-width
/// grid of wrapped cells is harder to read than a line that scrolls sideways.
public struct MarkdownTable: Sendable, Hashable {
    public enum Alignment: Sendable, Hashable {
        case leading
        case center
        case trailing
    }

    public var header: [String]
    public var alignments: [Alignment]
    /// Body rows, each with exactly as many cells as ``header``.
    public var rows: [[String]]

    public init(header: [String], alignments: [Alignment], rows: [[String]]) {
        self.header = header
        self.alignments = alignments
        self.rows = rows
    }

    /// The table as aligned plain-text columns (inline markup removed), a rule under the header.
    public var monospacedText: String {
        let cells = ([header] + rows).map { $0.map(Self.plainText) }
        let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        var lines: [String] = []
        for (index, row) in cells.enumerated() {
            let padded = row.indices.map { column in
                Self.pad(row[column], to: widths[column], alignment: alignments[column])
            }
            lines.append(padded.joined(separator: "  ").trailingSpacesRemoved)
            if index == 0 {
                lines.append(widths.map { String(repeating: "─", count: max(1, $0)) }.joined(separator: "  "))
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Parsing

    /// The table starting at `lines[index]` (a header row, then a delimiter row), and the index after it.
    static func parse(_ lines: [MarkdownLine], at index: Int) -> (table: MarkdownTable, next: Int)? {
        guard index + 1 < lines.count, lines[index].isBlockIndent, lines[index].content.contains("|") else {
            return nil
        }
        let header = cells(of: lines[index].content)
        guard let alignments = delimiterRow(lines[index + 1].content), alignments.count == header.count else {
            return nil
        }
        var rows: [[String]] = []
        var next = index + 2
        while next < lines.count, !lines[next].isBlank, lines[next].content.contains("|") {
            var row = cells(of: lines[next].content)
            if row.count < header.count { row += Array(repeating: "", count: header.count - row.count) }
            rows.append(Array(row.prefix(header.count)))
            next += 1
        }
        return (MarkdownTable(header: header, alignments: alignments, rows: rows), next)
    }

    /// `| a | b\|c |` → ["a", "b|c"].
    static func cells(of row: Substring) -> [String] {
        var text = row.trimmingWhitespace()
        if text.first == "|" { text = text.dropFirst() }
        if text.last == "|", !text.hasSuffix("\\|") { text = text.dropLast() }
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                if character != "|" { current.append("\\") }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        cells.append(current)
        return cells.map { String(Substring($0).trimmingWhitespace()) }
    }

    /// `|:---|:--:|---:|` → alignments; nil when the line is not a delimiter row.
    static func delimiterRow(_ row: Substring) -> [Alignment]? {
        guard row.contains("-") else { return nil }
        var alignments: [Alignment] = []
        for cell in cells(of: row) {
            guard !cell.isEmpty else { return nil }
            let leadingColon = cell.hasPrefix(":")
            let trailingColon = cell.count > 1 && cell.hasSuffix(":")
            let dashes = cell.dropFirst(leadingColon ? 1 : 0).dropLast(trailingColon ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == "-" }) else { return nil }
            switch (leadingColon, trailingColon) {
            case (true, true): alignments.append(.center)
            case (false, true): alignments.append(.trailing)
            default: alignments.append(.leading)
            }
        }
        return alignments
    }

    // MARK: Formatting

    /// A cell without inline markup: `**bold**` → bold, `` `code` `` → code, `[text](url)` → text.
    static func plainText(_ cell: String) -> String {
        var result = ""
        var rest = Substring(cell)
        while let character = rest.first {
            if character == "[", let close = rest.firstIndex(of: "]"),
                rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == "(",
                let end = rest[close...].firstIndex(of: ")")
            {
                result += rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: end)...]
                continue
            }
            if character == "`" || ((character == "*" || character == "_") && rest.dropFirst().first == character) {
                rest = rest.dropFirst(character == "`" ? 1 : 2)
                continue
            }
            result.append(character)
            rest = rest.dropFirst()
        }
        return result
    }

    static func pad(_ text: String, to width: Int, alignment: Alignment) -> String {
        let missing = max(0, width - text.count)
        switch alignment {
        case .leading: return text + String(repeating: " ", count: missing)
        case .trailing: return String(repeating: " ", count: missing) + text
        case .center:
            let left = missing / 2
            return String(repeating: " ", count: left) + text + String(repeating: " ", count: missing - left)
        }
    }
}

extension String {
    fileprivate var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
