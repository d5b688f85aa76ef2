/// Fits styled spans to a terminal width: word wrap with a prefix on the first row and another on the
/// rows after it (a list item's marker, then its hanging indent), words longer than a row cut.
enum LineWrapper {
    /// A word or a run of spaces, possibly made of spans of different looks (`**bold**,`).
    private struct Token {
        var pieces: [StyledSpan] = []
        var width = 0
        var isSpace = false
    }

    static func wrap(
        _ spans: [StyledSpan], width: Int, first: [StyledSpan] = [], rest: [StyledSpan] = []
    ) -> [StyledLine] {
        var lines: [StyledLine] = []
        var current = StyledLine(first)
        var column = current.width
        var hasContent = false
        var pendingSpace: Token?

        func newLine() {
            lines.append(current)
            current = StyledLine(rest)
            column = current.width
            hasContent = false
            pendingSpace = nil
        }

        for token in tokens(spans) {
            if token.isSpace {
                if hasContent { pendingSpace = token }
                continue
            }
            let spaceWidth = pendingSpace?.width ?? 0
            if hasContent, column + spaceWidth + token.width > width {
                newLine()
            }
            if let space = pendingSpace {
                current.spans += space.pieces
                column += space.width
                pendingSpace = nil
            }
            if column + token.width <= width {
                current.spans += token.pieces
                column += token.width
                hasContent = true
                continue
            }
            // Longer than what is left of an empty row: cut it character by character.
            for piece in token.pieces {
                var chunk = piece
                chunk.text = ""
                for character in piece.text {
                    let characterWidth = DisplayWidth.of(character)
                    if column + characterWidth > width, hasContent || !chunk.text.isEmpty {
                        if !chunk.text.isEmpty { current.spans.append(chunk) }
                        chunk.text = ""
                        newLine()
                    }
                    chunk.text.append(character)
                    column += characterWidth
                }
                if !chunk.text.isEmpty {
                    current.spans.append(chunk)
                    hasContent = true
                }
            }
        }
        lines.append(current)
        return lines.map { StyledLine(InlineMarkdown.merged($0.spans)) }
    }

    /// Cuts spans into rows of `width` columns keeping every character (spaces too): code lines.
    static func cut(_ spans: [StyledSpan], width: Int, prefix: [StyledSpan]) -> [StyledLine] {
        var lines: [StyledLine] = []
        var current = StyledLine(prefix)
        var column = current.width
        let available = max(1, width)
        for piece in spans {
            var chunk = piece
            chunk.text = ""
            for character in piece.text {
                let characterWidth = DisplayWidth.of(character)
                if column + characterWidth > available, column > StyledLine(prefix).width {
                    current.spans.append(chunk)
                    lines.append(current)
                    current = StyledLine(prefix)
                    column = current.width
                    chunk.text = ""
                }
                chunk.text.append(character)
                column += characterWidth
            }
            current.spans.append(chunk)
        }
        lines.append(current)
        return lines.map { StyledLine(InlineMarkdown.merged($0.spans)) }
    }

    private static func tokens(_ spans: [StyledSpan]) -> [Token] {
        var tokens: [Token] = []
        for span in spans {
            var piece = span
            piece.text = ""
            var pieceIsSpace = false
            func close() {
                guard !piece.text.isEmpty else { return }
                let width = piece.width
                if let last = tokens.last, last.isSpace == pieceIsSpace {
                    tokens[tokens.count - 1].pieces.append(piece)
                    tokens[tokens.count - 1].width += width
                } else {
                    tokens.append(Token(pieces: [piece], width: width, isSpace: pieceIsSpace))
                }
                piece.text = ""
            }
            for character in span.text {
                let isSpace = character == " " || character == "\t"
                if isSpace != pieceIsSpace {
                    close()
                    pieceIsSpace = isSpace
                }
                piece.text.append(isSpace ? " " : character)
            }
            close()
        }
        return tokens
    }
}
