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
/// The line still being written is wrapped at the width as it arrives: its full rows are printed for
/// good (a greedy wrap never moves a word back once a later word went to the next row) and only its
/// last, partial row is live, redrawn in place, so a long paragraph reads as it streams. Only rows of
/// its ``SettledPrefix`` are final (a closing `**` or a link's vanishing target could move a word back);
/// while more than one row is unsettled, or the line may still turn into a table row (it has a `|`),
/// its tail is shown on the live row instead. Whole messages (history) go through the
/// same path, so a reply looks the same streamed and afterwards. Every line passes through
/// ``TerminalText`` before it is parsed: the renderer adds the only escape sequences.
struct MarkdownStream {
    private(set) var renderer: MarkdownTerminalRenderer
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
    /// Rows of the line being written already printed (outside a list or quote, whose printed rows
    /// ``groupRowsPrinted`` counts).
    private var partialRowsPrinted = 0
    /// A width the terminal changed to, taken up where nothing printed depends on the old one: at the
    /// start of a line outside a list or quote, or mid-paragraph after its printed rows
    /// (``printedBoundary``); elsewhere the line ends at the width it started with.
    private var pendingWidth: Int?
    /// Where in the paragraph being written (UTF-8 offset) its printed rows end: the rest of it can be
    /// laid out again, for another width, as a paragraph of its own.
    private var printedBoundary: Int?

    init(renderer: MarkdownTerminalRenderer, showsLiveLine: Bool) {
        self.renderer = renderer
        self.showsLiveLine = showsLiveLine
    }

    /// The terminal is now `width` columns wide (SIGWINCH): what is not printed yet is laid out for it,
    /// from the next line or the paragraph's unprinted rest (see ``pendingWidth``).
    mutating func resize(to width: Int) {
        pendingWidth = width == renderer.width ? nil : width
    }

    private mutating func applyPendingWidth() {
        guard let width = pendingWidth, group == nil else { return }
        if partialRowsPrinted > 0 {
            // Mid-paragraph: what is printed stays; the rest is laid out anew from where it ends.
            guard fence == nil, let boundary = printedBoundary else { return }
            partial = String(decoding: partial.utf8.dropFirst(boundary), as: UTF8.self)
            partial = String(partial.drop { $0 == " " })
            partialRowsPrinted = 0
        }
        printedBoundary = nil
        renderer = MarkdownTerminalRenderer(width: width, hyperlinks: renderer.hyperlinks)
        pendingWidth = nil
    }

    /// A paragraph whose rows were printed goes on as a paragraph of what is left of it: each later
    /// delta then renders only the unprinted rest, not the whole line again (a long paragraph cost
    /// O(n²) otherwise). Only when the rest reads as the same paragraph on its own — not for a heading
    /// (its style), nor a rest that would start a list, a quote or a table.
    private mutating func restartAfterPrintedRows() {
        guard group == nil, fence == nil, let boundary = printedBoundary else { return }
        let raw = rawPartial
        let whole = MarkdownParser.parse([MarkdownLine(Substring(TerminalText.escaped(raw)))])
        guard whole.count == 1, case .paragraph = whole[0] else { return }
        let rest = String(String(decoding: partial.utf8.dropFirst(boundary), as: UTF8.self).drop { $0 == " " })
        let restSafe = TerminalText.escaped(rest.hasSuffix("\r") ? String(rest.dropLast()) : rest)
        guard !rest.contains("|"),
            MarkdownParser.parse([MarkdownLine(Substring(restSafe))]) == [.paragraph(restSafe)]
        else { return }
        partial = rest
        partialRowsPrinted = 0
        printedBoundary = nil
    }

    /// Where the rows `printed` of the paragraph `raw` end in it: the cut point whose prefix renders as
    /// exactly those rows; nil when none does (a construct open across the rows' end).
    private func boundary(of printed: [StyledLine], in raw: String) -> Int? {
        let points = SettledPrefix.points(of: raw)
        for point in points.reversed() {
            let rows = render(String(raw[..<point]))
            if rows.count < printed.count { return nil }
            if rows == printed { return raw.utf8.distance(from: raw.startIndex, to: point) }
        }
        return nil
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
        let printedAlready = partialRowsPrinted
        partialRowsPrinted = 0
        printedBoundary = nil
        if printedAlready == 0 { applyPendingWidth() }
        if let open = fence {
            if line.closesFence(marker: open.marker, length: open.length) {
                fence = nil
                return emit([renderer.codeFooter()])
            }
            let rows = renderer.codeRows(
                String(line.droppingIndent(upTo: open.indent)), highlighter: open.highlighter)
            return emit(Array(rows.dropFirst(printedAlready)))
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
            start(.list, with: safe, rowsPrinted: printedAlready)
            return out + printGroupProgress()
        }
        if line.quoteContent != nil {
            start(.quote, with: safe, rowsPrinted: printedAlready)
            return out + printGroupProgress()
        }
        // Rows already printed as a paragraph stay one: the line is not taken back as a table's.
        if line.isBlockIndent, line.content.contains("|"), printedAlready == 0 {
            start(.table, with: safe)
            return out
        }
        return out + emit(Array(renderer.rows(MarkdownParser.parse([line])).dropFirst(printedAlready)))
    }

    /// The line being written as it renders so far (`rows`), the rows of it that are final
    /// (`final`: those of its ``SettledPrefix`` but the last), and how many are printed; nil while it
    /// cannot be laid out before it ends (a possible table row, a fence's opening or closing).
    private func partialRendering() -> (rows: [StyledLine], final: [StyledLine], printed: Int)? {
        let raw = rawPartial
        if let open = fence {
            let safe = TerminalText.escaped(raw)
            let line = MarkdownLine(Substring(safe))
            guard !line.closesFence(marker: open.marker, length: open.length) else { return nil }
            let rows = renderer.codeRows(
                String(line.droppingIndent(upTo: open.indent)), highlighter: open.highlighter)
            return (rows, Array(rows.dropLast()), partialRowsPrinted)
        }
        let line = MarkdownLine(Substring(TerminalText.escaped(raw)))
        if line.isBlank || line.codeFence != nil { return nil }
        if let open = group, open == .table || !continues(open, with: line) { return nil }
        if group == nil, line.isBlockIndent, line.content.contains("|"), partialRowsPrinted == 0 { return nil }
        let rows = render(raw)
        let final = SettledPrefix.end(of: raw).map { Array(render(String(raw[..<$0])).dropLast()) } ?? []
        return (rows, final, group == nil ? partialRowsPrinted : groupRowsPrinted)
    }

    /// The line being written, without the CR of a CR LF still to come.
    private var rawPartial: String { partial.hasSuffix("\r") ? String(partial.dropLast()) : partial }

    /// `raw` (the line being written, or a prefix of it) rendered as it would be if it ended here.
    private func render(_ raw: String) -> [StyledLine] {
        let safe = TerminalText.escaped(raw)
        guard group != nil else { return renderer.rows(MarkdownParser.parse([MarkdownLine(Substring(safe))])) }
        return renderer.rows(MarkdownParser.parse((groupLines + [safe]).map { MarkdownLine(Substring($0)) }))
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

    private mutating func start(_ kind: Group, with line: String, rowsPrinted: Int = 0) {
        group = kind
        groupLines = [line]
        groupRowsPrinted = rowsPrinted
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

    /// The line being written: its full rows printed, its last row live. The tail of it on the live row
    /// when it cannot be laid out yet (``partialRendering()``); a hint while a table is held.
    private mutating func liveLine() -> String {
        guard showsLiveLine else { return "" }
        applyPendingWidth()
        if !partial.isEmpty, let rendering = partialRendering(), let last = rendering.rows.last {
            var out = ""
            let settled = rendering.final.count
            if settled > rendering.printed {
                out += emit(Array(rendering.final[rendering.printed...]))
                if group != nil, fence == nil {
                    groupRowsPrinted = settled
                } else {
                    partialRowsPrinted = settled
                    if fence == nil { printedBoundary = boundary(of: rendering.final, in: rawPartial) }
                }
                restartAfterPrintedRows()
            }
            // More than one row not yet final (an open link, emphasis): the tail on the live row below.
            if rendering.rows.count - 1 <= max(settled, rendering.printed) {
                if blankPending {
                    // The blank row before a new block comes before its live row, not after it.
                    out += clearLive() + "\n"
                    blankPending = false
                }
                liveShown = true
                return out + "\r\u{1B}[2K" + last.ansi(hyperlinks: renderer.hyperlinks)
            }
            return out + tailLine()
        }
        return tailLine()
    }

    /// The live row as the tail of the line being written, cut to fit; a hint while a table is held.
    private mutating func tailLine() -> String {
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
