import OpenClawPresentation

/// A Markdown table drawn with box characters and fitted to the terminal: columns keep their natural
/// width when the table fits; otherwise the widest columns give up columns first and their cells wrap.
struct TableLayout {
    let table: MarkdownTable
    let inline: InlineMarkdown

    /// Narrowest a column gets before the table is allowed to overflow.
    static let minimumColumn = 3

    func rows(width: Int) -> [StyledLine] {
        let columns = table.header.count
        guard columns > 0 else { return [] }
        let header = table.header.map { inline.spans($0, base: StyledSpan(text: "", style: .bold)) }
        let body = table.rows.map { row in row.map { inline.spans($0) } }
        let natural = (0..<columns).map { column in
            ([header[column]] + body.map { $0[column] }).map { StyledLine($0).width }.max() ?? 0
        }
        let widths = Self.fit(natural.map { max(1, $0) }, into: width - (3 * columns + 1))

        var lines = [border("┌", "┬", "┐", widths)]
        lines += row(header, widths: widths)
        lines.append(border("├", "┼", "┤", widths))
        for cells in body { lines += row(cells, widths: widths) }
        lines.append(border("└", "┴", "┘", widths))
        return lines
    }

    /// Column widths whose sum fits `available`: the widest column shrinks by one until it fits or
    /// every column is at the minimum.
    static func fit(_ natural: [Int], into available: Int) -> [Int] {
        var widths = natural
        while widths.reduce(0, +) > available {
            guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
                widths[widest] > minimumColumn
            else { break }
            widths[widest] -= 1
        }
        return widths
    }

    private func border(_ left: String, _ middle: String, _ right: String, _ widths: [Int]) -> StyledLine {
        let text = left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right
        return StyledLine([StyledSpan(text: text, style: .dim)])
    }

    private func row(_ cells: [[StyledSpan]], widths: [Int]) -> [StyledLine] {
        let wrapped = cells.indices.map { column in LineWrapper.wrap(cells[column], width: widths[column]) }
        let height = wrapped.map(\.count).max() ?? 1
        let bar = StyledSpan(text: "│", style: .dim)
        var lines: [StyledLine] = []
        for line in 0..<height {
            var spans = [bar]
            for column in cells.indices {
                let content = line < wrapped[column].count ? wrapped[column][line] : StyledLine()
                let missing = max(0, widths[column] - content.width)
                let (left, right): (Int, Int)
                switch table.alignments[column] {
                case .leading: (left, right) = (0, missing)
                case .trailing: (left, right) = (missing, 0)
                case .center: (left, right) = (missing / 2, missing - missing / 2)
                }
                spans.append(StyledSpan(text: " " + String(repeating: " ", count: left)))
                spans += content.spans
                spans.append(StyledSpan(text: String(repeating: " ", count: right) + " "))
                spans.append(bar)
            }
            lines.append(StyledLine(InlineMarkdown.merged(spans)))
        }
        return lines
    }
}
