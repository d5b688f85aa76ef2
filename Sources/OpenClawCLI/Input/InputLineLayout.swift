import OpenClawProtocol

/// The input line laid out on terminal rows, in cells: a wide character or an emoji takes two cells, a
/// combining mark none, and a line longer than the terminal wraps onto more rows (a wide character
/// that does not fit at the end of a row starts the next, as a terminal would place it). Counting
/// characters instead put the cursor columns off after wide text, and a line longer than the window
/// wrapped behind the display's back, leaving a copy of itself at every key.
///
/// Line breaks show as `↵` and control characters escaped: the line is shown, never obeyed. When the
/// text needs more rows than ``init(prompt:promptWidth:editor:columns:maxRows:)`` allows, the rows
/// around the cursor are shown.
struct InputLineLayout: Equatable {
    /// The rows to draw; the first starts after the prompt when it is shown.
    let rows: [String]
    /// Whether the first row is the line's first (the prompt goes before it).
    let startsWithPrompt: Bool
    /// The cursor's row in ``rows`` and its column (prompt included on the first row).
    let cursorRow: Int
    let cursorColumn: Int

    init(promptWidth: Int, editor: LineEditor, columns: Int, maxRows: Int = 10) {
        let columns = max(columns, 4)
        var rows = [""]
        var column = promptWidth
        var cursor: (row: Int, column: Int)?
        for (index, character) in editor.characters.enumerated() {
            let cell = Self.cell(character)
            let width = DisplayWidth.of(cell)
            if column + max(width, 1) > columns {
                rows.append("")
                column = 0
            }
            if index == editor.cursor { cursor = (rows.count - 1, column) }
            rows[rows.count - 1] += cell
            column += width
        }
        if cursor == nil {
            if column >= columns {
                rows.append("")
                column = 0
            }
            cursor = (rows.count - 1, column)
        }
        let position = cursor ?? (0, promptWidth)
        let limit = max(1, maxRows)
        let first = rows.count > limit ? min(max(0, position.row - limit + 1), rows.count - limit) : 0
        self.rows = Array(rows[first..<min(rows.count, first + limit)])
        startsWithPrompt = first == 0
        cursorRow = position.row - first
        cursorColumn = position.column
    }

    private static func cell(_ character: Character) -> String {
        switch character {
        case "\n": "↵"
        case "\t": " "
        default: TerminalText.escapedLine(String(character))
        }
    }
}
