import OpenClawPresentation

/// Lays out parsed Markdown blocks (the shared ``MarkdownParser``'s, the same the app shows) as terminal
/// rows of a given width: headings bold, lists with markers and hanging indents, quotes behind a bar,
/// tables fitted to the width, fenced code in a frame with its language and simple highlighting.
struct MarkdownTerminalRenderer {
    /// Columns to fill; rows never exceed it (except a table whose columns are all at their minimum).
    let width: Int
    /// Whether the terminal shows OSC 8 hyperlinks; otherwise a link's URL follows its text.
    let hyperlinks: Bool

    var inline: InlineMarkdown { InlineMarkdown(hyperlinks: hyperlinks) }

    func rows(_ blocks: [MarkdownBlock]) -> [StyledLine] {
        var lines: [StyledLine] = []
        for block in blocks { lines += rows(block) }
        return lines
    }

    func rows(_ block: MarkdownBlock) -> [StyledLine] {
        switch block {
        case .heading(let level, let text):
            let style: SpanStyle = level == 1 ? [.bold, .underline] : .bold
            let base = StyledSpan(text: "", style: style, tint: level <= 2 ? .magenta : nil)
            return LineWrapper.wrap(inline.spans(text, base: base), width: width)
        case .paragraph(let text):
            return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                LineWrapper.wrap(inline.spans(String(line)), width: width)
            }
        case .bulletList(let items), .numberedList(let items):
            return items.flatMap(item)
        case .codeBlock(let language, let code):
            var lines = [codeHeader(language: language)]
            let highlighter = CodeHighlighter(language: language)
            for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
                lines += codeRows(String(line), highlighter: highlighter)
            }
            lines.append(codeFooter())
            return lines
        case .table(let table):
            return TableLayout(table: table, inline: inline).rows(width: width)
        case .quote(let blocks):
            let inner = MarkdownTerminalRenderer(width: max(1, width - 2), hyperlinks: hyperlinks)
            var lines: [StyledLine] = []
            for (index, block) in blocks.enumerated() {
                if index > 0 { lines.append(StyledLine()) }
                lines += inner.rows(block)
            }
            let bar = StyledSpan(text: "│ ", style: .dim)
            return lines.map { StyledLine([bar] + $0.spans.map(Self.quoted)) }
        case .rule:
            return [StyledLine([StyledSpan(text: String(repeating: "─", count: max(1, width)), style: .dim)])]
        }
    }

    // MARK: Lists

    private func item(_ item: MarkdownListItem) -> [StyledLine] {
        let indent = String(repeating: "  ", count: item.level)
        let marker: StyledSpan
        switch item.isChecked {
        case true?: marker = StyledSpan(text: "☑", tint: .green)
        case false?: marker = StyledSpan(text: "☐")
        case nil: marker = StyledSpan(text: item.marker, tint: item.number == nil ? .cyan : nil)
        }
        let hanging = StyledSpan(text: indent + String(repeating: " ", count: marker.width + 1))
        let first = [StyledSpan(text: indent), marker, StyledSpan(text: " ")]
        var lines: [StyledLine] = []
        for (index, line) in item.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            lines += LineWrapper.wrap(
                inline.spans(String(line)), width: width, first: index == 0 ? first : [hanging], rest: [hanging])
        }
        return lines
    }

    // MARK: Code

    func codeHeader(language: String?) -> StyledLine {
        let label = language.map { "╭─ \($0) " } ?? "╭─"
        let rule = String(repeating: "─", count: max(0, width - DisplayWidth.of(label)))
        return StyledLine([StyledSpan(text: label + rule, style: .dim)])
    }

    func codeFooter() -> StyledLine {
        StyledLine([StyledSpan(text: "╰" + String(repeating: "─", count: max(0, width - 1)), style: .dim)])
    }

    /// One line of code behind the frame's bar, tabs expanded, cut (not wrapped at words) at the width.
    func codeRows(_ line: String, highlighter: CodeHighlighter) -> [StyledLine] {
        var expanded = ""
        var column = 0
        for character in line {
            if character == "\t" {
                let spaces = 4 - column % 4
                expanded += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                expanded.append(character)
                column += 1
            }
        }
        return LineWrapper.cut(
            highlighter.spans(expanded), width: width, prefix: [StyledSpan(text: "│ ", style: .dim)])
    }

    /// Quoted text is dimmed a little less than the bar: italic keeps it apart from the reply's own text.
    private static func quoted(_ span: StyledSpan) -> StyledSpan {
        var span = span
        if span.tint == nil, !span.style.contains(.dim) { span.style.insert(.italic) }
        return span
    }
}
