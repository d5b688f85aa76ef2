import OpenClawPresentation
import OpenClawProtocol

/// Renders a reply's Markdown as it streams, line by line, so that the output stays linear in the
/// reply's length and nothing printed is ever taken back.
///
/// Only the open block is re-rendered, and only when one of its lines ends:
/// - a line of a paragraph, a heading or a rule is final when it ends (line breaks are kept, and inline
///   styles never cross lines), and so is each line of fenced code (highlighting is per line);
/// - a list or a quote is re-rendered as its lines arrive and the rows past those printed are printed
///   (its earlier rows do not change when lines are added);
/// - a table is held until it ends: its column widths depend on every row;
/// - a blank line ends any block and prints as one blank row.
/// The line still being written is shown on a live row that is redrawn in place (its tail, cut to the
/// width), and replaced by its rendered rows when it ends. Whole messages (history) go through the
/// same path, so a reply looks the same streamed and afterwards. Every line passes through
/// ``TerminalText`` before it is parsed: the renderer adds the only escape sequences.
struct MarkdownStream {
    let renderer: MarkdownTerminalRenderer
    /// Whether the line being written is shown (a live reply) or waits for its end (history).
    let showsLiveLine: Bool

    /// Lines a list or quote may grow to before it is printed and a new one started (bounds the work of
    /// re-rendering the open block).
    static let groupLimit = 200
    /// Lines a table is held for before it is printed as it stands.
    static let tableLimit = 1_000

    private enum Group {
        case list
        case quote
        case table
    }

    private struct Fence {
        let marker: Character
        let length: Int
        let indent: Int
        let highlighter: CodeHighlighter
    }

    private var partial = ""
    private var fence: Fence?
    private var group: Group?
    private var groupLines: [String] = []
    private var groupRowsPrinted = 0
    private var blankPending = false
    private var printedAny = false
    private var liveShown = false

    init(renderer: MarkdownTerminalRenderer, showsLiveLine: Bool) {
        self.renderer = renderer
        self.showsLiveLine = showsLiveLine
    }

    /// The bytes to write for `text` (the next piece of the reply).
    mutating func append(_ text: String) -> String {
        var out = ""
        let pieces = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, piece) in pieces.enumerated() {
            partial += String(decoding: piece, as: UTF8.self)
            guard index < pieces.count - 1 else { break }
            let line = partial
            partial = ""
            out += takeLine(line)
        }
        out += liveLine()
        return out
    }

    /// The bytes that end the reply: the last line, a held block, an unclosed fence's frame.
    mutating func finish() -> String {
        var out = ""
        if !partial.isEmpty {
            let line = partial
            partial = ""
            out += takeLine(line)
        }
        out += clearLive()
        out += flushGroup()
        if fence != nil {
            out += emit([renderer.codeFooter()])
            fence = nil
        }
        return out
    }

    /// Takes back the live row so that other output (a finished tool step) can be printed; the next
    /// ``append(_:)`` or ``resumeLiveLine()`` draws it again.
    mutating func suspendLiveLine() -> String { clearLive() }

    mutating func resumeLiveLine() -> String { liveLine() }

    // MARK: Lines

    private mutating func takeLine(_ rawLine: String) -> String {
        var raw = rawLine
        if raw.hasSuffix("\r") { raw.removeLast() }
        let safe = TerminalText.escaped(raw)
        let line = MarkdownLine(Substring(safe))
        if let open = fence {
            if line.closesFence(marker: open.marker, length: open.length) {
                fence = nil
                return emit([renderer.codeFooter()])
            }
            return emit(
                renderer.codeRows(String(line.droppingIndent(upTo: open.indent)), highlighter: open.highlighter))
        }
        if line.isBlank {
            let out = flushGroup()
            if printedAny { blankPending = true }
            return out
        }
        if let opening = line.codeFence {
            let out = flushGroup()
            fence = Fence(
                marker: opening.marker, length: opening.length, indent: line.indent,
                highlighter: CodeHighlighter(language: opening.language))
            return out + emit([renderer.codeHeader(language: opening.language)])
        }
        var out = ""
        if let open = group {
            if continues(open, with: line) {
                groupLines.append(safe)
                return out + (open == .table ? "" : printGroupProgress())
            }
            out += flushGroup()
        }
        if line.isListItem {
            start(.list, with: safe)
            return out + printGroupProgress()
        }
        if line.quoteContent != nil {
            start(.quote, with: safe)
            return out + printGroupProgress()
        }
        if line.isBlockIndent, line.content.contains("|") {
            start(.table, with: safe)
            return out
        }
        return out + emit(renderer.rows(MarkdownParser.parse([line])))
    }

    private func continues(_ open: Group, with line: MarkdownLine) -> Bool {
        switch open {
        case .list:
            return groupLines.count < Self.groupLimit && line.atxHeading == nil && !line.isRule
                && line.quoteContent == nil
        case .quote:
            return groupLines.count < Self.groupLimit && line.quoteContent != nil
        case .table:
            return groupLines.count < Self.tableLimit && line.content.contains("|")
        }
    }

    private mutating func start(_ kind: Group, with line: String) {
        group = kind
        groupLines = [line]
        groupRowsPrinted = 0
    }

    private func renderGroup() -> [StyledLine] {
        renderer.rows(MarkdownParser.parse(groupLines.map { MarkdownLine(Substring($0)) }))
    }

    /// Prints the open list's or quote's rows past those already printed.
    private mutating func printGroupProgress() -> String {
        let rows = renderGroup()
        guard rows.count > groupRowsPrinted else { return "" }
        let fresh = Array(rows[groupRowsPrinted...])
        groupRowsPrinted = rows.count
        return emit(fresh)
    }

    private mutating func flushGroup() -> String {
        guard group != nil else { return "" }
        let rows = renderGroup()
        let fresh = rows.count > groupRowsPrinted ? Array(rows[groupRowsPrinted...]) : []
        group = nil
        groupLines = []
        groupRowsPrinted = 0
        return emit(fresh)
    }

    // MARK: Output

    private mutating func emit(_ rows: [StyledLine]) -> String {
        guard !rows.isEmpty else { return "" }
        var out = clearLive()
        if blankPending {
            out += "\n"
            blankPending = false
        }
        for row in rows { out += row.ansi(hyperlinks: renderer.hyperlinks) + "\n" }
        printedAny = true
        return out
    }

    private mutating func clearLive() -> String {
        guard liveShown else { return "" }
        liveShown = false
        return "\r\u{1B}[2K"
    }

    /// The live row: the end of the line being written, cut to fit; a hint while a table is held.
    private mutating func liveLine() -> String {
        guard showsLiveLine else { return "" }
        let text: String
        if !partial.isEmpty {
            let room = max(1, renderer.width - 3)
            let raw = String(partial.suffix(room))
            let tail = TerminalText.escapedLine(raw)
            var visible = ""
            var width = 0
            for character in tail.reversed() {
                let characterWidth = DisplayWidth.of(character)
                if width + characterWidth > room { break }
                visible.insert(character, at: visible.startIndex)
                width += characterWidth
            }
            let cut = partial.utf8.count > raw.utf8.count || visible.count < tail.count ? "…" : ""
            text = (fence != nil ? "\u{1B}[2m│\u{1B}[0m " : "") + cut + visible
        } else if group == .table {
            text = "\u{1B}[2m(table, \(groupLines.count) rows…)\u{1B}[0m"
        } else {
            return clearLive()
        }
        liveShown = true
        return "\r\u{1B}[2K" + text
    }
}
