/// Splits Markdown text into ``MarkdownBlock``s: a pure function of the text, cheap enough to run on
/// every render of a streaming reply (one pass over the lines).
///
/// It follows CommonMark where a chat reply needs it, and is forgiving where a reply is cut mid-way:
/// an unclosed fence is code to the end, a table without its delimiter row yet is a paragraph.
/// Deliberately left out: indented code blocks (list continuations look the same and are far more
/// common in replies), HTML blocks, reference links, lazy continuation of quotes.
public enum MarkdownParser {
    public static func parse(_ text: String) -> [MarkdownBlock] {
        // `\r\n` is one Character in Swift: split on every newline character, not on "\n" alone.
        parse(text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(MarkdownLine.init))
    }

    /// The blocks of lines already split (a streaming renderer parses the open block's lines).
    public static func parse(_ lines: [MarkdownLine]) -> [MarkdownBlock] {
        var blocks: [MarkdownBlock] = []
        var paragraph: [Substring] = []
        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            blocks.append(.paragraph(paragraph.joined(separator: "\n")))
            paragraph = []
        }

        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.isBlank {
                flushParagraph()
                index += 1
                continue
            }
            if let fence = line.codeFence {
                flushParagraph()
                var code: [Substring] = []
                index += 1
                while index < lines.count, !lines[index].closesFence(marker: fence.marker, length: fence.length) {
                    code.append(lines[index].droppingIndent(upTo: line.indent))
                    index += 1
                }
                index += 1
                blocks.append(.codeBlock(language: fence.language, code: code.joined(separator: "\n")))
                continue
            }
            if let heading = line.atxHeading {
                flushParagraph()
                blocks.append(.heading(level: heading.level, text: heading.text))
                index += 1
                continue
            }
            if !paragraph.isEmpty, let level = line.setextLevel {
                blocks.append(.heading(level: level, text: paragraph.joined(separator: " ")))
                paragraph = []
                index += 1
                continue
            }
            if line.isRule {
                flushParagraph()
                blocks.append(.rule)
                index += 1
                continue
            }
            if line.quoteContent != nil {
                flushParagraph()
                var quoted: [MarkdownLine] = []
                while index < lines.count, let content = lines[index].quoteContent {
                    quoted.append(MarkdownLine(content))
                    index += 1
                }
                blocks.append(.quote(parse(quoted)))
                continue
            }
            if line.isBlockIndent, MarkdownListMarker(line) != nil {
                flushParagraph()
                let (list, next) = parseList(lines, at: index)
                blocks.append(list)
                index = next
                continue
            }
            if paragraph.isEmpty, let (table, next) = MarkdownTable.parse(lines, at: index) {
                blocks.append(.table(table))
                index = next
                continue
            }
            paragraph.append(line.content.trimmingWhitespace())
            index += 1
        }
        flushParagraph()
        return blocks
    }

    /// The list starting at `lines[start]`, nested items flattened with their level, and the index
    /// after it. A blank line ends the list unless another item or an indented continuation follows.
    static func parseList(_ lines: [MarkdownLine], at start: Int) -> (block: MarkdownBlock, next: Int) {
        let baseIndent = lines[start].indent
        let ordered = MarkdownListMarker(lines[start])?.isOrdered ?? false
        var items: [MarkdownListItem] = []
        var indents: [Int] = []
        var counters: [Int?] = []
        var index = start
        while index < lines.count {
            let line = lines[index]
            if line.isBlank {
                let following = lines[(index + 1)...].first { !$0.isBlank }
                guard let following, following.indent > baseIndent || MarkdownListMarker(following) != nil else {
                    break
                }
                index += 1
                continue
            }
            // A fence ends the list, even inside an item: the code is laid out as a code block, and the
            // numbering goes on from the written numbers after it.
            if line.codeFence != nil { break }
            if line.indent >= baseIndent, !line.isRule, let marker = MarkdownListMarker(line) {
                if line.indent <= baseIndent + 1, marker.isOrdered != ordered, !items.isEmpty { break }
                while let last = indents.last, line.indent < last {
                    indents.removeLast()
                }
                if indents.isEmpty || line.indent > (indents.last ?? 0) + 1 { indents.append(line.indent) }
                let level = indents.count - 1
                counters = Array(counters.prefix(level + 1))
                if counters.count <= level { counters += Array(repeating: nil, count: level + 1 - counters.count) }
                var number: Int?
                if let written = marker.number {
                    number = counters[level].map { $0 + 1 } ?? written
                    counters[level] = number
                } else {
                    counters[level] = nil
                }
                items.append(
                    MarkdownListItem(
                        text: String(marker.text), level: level, number: number, isChecked: marker.isChecked)
                )
                index += 1
                continue
            }
            // A continuation of the last item: indented, or a plain line right after it.
            let continues =
                line.indent > baseIndent
                || (!lines[index - 1].isBlank && line.atxHeading == nil && line.quoteContent == nil && !line.isRule)
            guard continues, !items.isEmpty else { break }
            let text = line.content.trimmingWhitespace()
            items[items.count - 1].text += items[items.count - 1].text.isEmpty ? String(text) : "\n" + text
            index += 1
        }
        return (ordered ? .numberedList(items) : .bulletList(items), index)
    }
}
