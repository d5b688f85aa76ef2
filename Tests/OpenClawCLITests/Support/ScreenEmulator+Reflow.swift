/// Resizing a terminal that re-wraps its rows (VTE and every terminal built on it, kitty, iTerm2,
/// Terminal.app, WezTerm, Windows Terminal, Alacritty, Konsole, foot, ghostty, tmux panes …), the way
/// most people's terminals behave, where a program that assumes xterm's cut rows leaves stale copies.
///
/// The model, checked against tmux 3.3a on this machine and against what VTE's `doc/rewrap.txt` and
/// kitty's `rewrap.c` specify:
/// - A *line* is a row together with the rows it was soft-wrapped into (auto-wrap at the right margin);
///   a line feed, or a row written only up to its end, ends it. On resize the lines (scrollback
///   included) are joined and wrapped again at the new width as if written there: a wide character that
///   does not fit starts the next row, and the cell it leaves is no part of the line (VTE). Blank cells
///   at the end of a row (never written, or erased) are no part of the line; written spaces are.
/// - The cursor keeps its character. At or past the end of its line's text it stays after the last
///   character, on that character's row, never on a row of its own: at the width's column for a line that
///   exactly fills its last row (tmux reports column = width there; VTE: "nor should we wrap to next
///   line"; kitty puts it just after the last character), so the next character printed wraps.
/// - Every row of the screen is a line, the blank ones below the text too, and the screen shows the last
///   of them, pinned to the bottom (tmux, and VTE once its screen has filled): rows the re-wrapped text
///   has no more room for go into the scrollback, and come back from it when it needs fewer. Blank rows
///   under the cursor's line go first rather than push the cursor's row off the screen (VTE drops lines
///   below the cursor; tmux 3.3 loses the cursor to the top-left corner there).
/// - The alternate screen is cut as xterm does (VTE never re-wraps it); the saved cursor is only clamped
///   (VTE and kitty move it with its character: not modelled).
extension ScreenEmulator {
    /// One character of a line and the cells it takes (a blank inside a line takes one).
    private struct Glyph {
        var cell: Cell
        var width: Int
    }

    /// Where the cursor lands after re-wrapping, in the rows of all lines (scrollback first).
    private struct Landing {
        var row = 0
        var column = 0
        var pendingWrap = false
    }

    mutating func reflow(columns newColumns: Int, rows newRows: Int) {
        let (lines, cursorLine, cursorOffset) = joinedLines()
        var rows: [ScrolledRow] = []
        var landing = Landing()
        var cursorLineEnd = 0
        for (index, line) in lines.enumerated() {
            let isCursorLine = index == cursorLine
            var row: [Cell] = []
            var column = 0
            var offset = 0
            for glyph in line {
                if column + glyph.width > newColumns, !row.isEmpty {
                    rows.append(ScrolledRow(cells: Self.fitted(row, to: newColumns), wrapped: true))
                    row = []
                    column = 0
                }
                if isCursorLine, (offset..<(offset + glyph.width)).contains(cursorOffset) {
                    landing = Landing(row: rows.count, column: column + cursorOffset - offset)
                }
                row.append(glyph.cell)
                if glyph.width == 2 { row.append(.wideTail) }
                column += glyph.width
                offset += glyph.width
            }
            if isCursorLine, cursorOffset >= offset {
                // After the text: after its last character, on that character's row.
                let wanted = line.isEmpty ? cursorOffset : column + cursorOffset - offset
                landing = Landing(
                    row: rows.count, column: min(wanted, newColumns - 1),
                    pendingWrap: !line.isEmpty && wanted >= newColumns)
            }
            rows.append(ScrolledRow(cells: Self.fitted(row, to: newColumns), wrapped: false))
            if isCursorLine { cursorLineEnd = rows.count - 1 }
        }
        var top = max(0, rows.count - newRows)
        while landing.row < top, rows.count - 1 > cursorLineEnd, let last = rows.last,
            !last.wrapped, last.cells.allSatisfy({ $0 == .blank })
        {
            rows.removeLast()
            top = max(0, rows.count - newRows)
        }
        if landing.row < top {
            top = landing.row
            rows = Array(rows.prefix(top + newRows))
        }
        let blank = Array(repeating: Cell.blank, count: newColumns)
        var screen = Array(rows[top...])
        screen += Array(repeating: ScrolledRow(cells: blank, wrapped: false), count: newRows - screen.count)
        scrolledRows = Array(rows[..<top])
        grid = screen.map(\.cells)
        wrapped = screen.map(\.wrapped)
        columns = newColumns
        rowCount = newRows
        cursorRow = landing.row - top
        cursorColumn = landing.column
        pendingWrap = landing.pendingWrap
        scrollTop = 0
        scrollBottom = newRows - 1
        if let position = saved { saved = (min(position.row, newRows - 1), min(position.column, newColumns - 1)) }
    }

    /// Scrollback then the visible rows as lines: rows the terminal soft-wrapped joined again, blank rows at
    /// the bottom left out. Words a re-wrap split over two rows are whole here.
    var transcriptLines: [String] {
        var lines: [String] = []
        var current = ""
        for row in scrolledRows + zip(grid, wrapped).map({ ScrolledRow(cells: $0, wrapped: $1) }) {
            guard row.wrapped else {
                lines.append(current + Self.text(row.cells))
                current = ""
                continue
            }
            // Written spaces at the end of a wrapped row belong to the line; blank cells do not.
            current += Self.glyphs(row.cells).map { glyph in
                if case .text(let text) = glyph.cell { return text }
                return " "
            }.joined()
        }
        if !current.isEmpty { lines.append(current) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The lines of the scrollback and the screen, and the cursor's line and its offset in cells there.
    private func joinedLines() -> (lines: [[Glyph]], cursorLine: Int, cursorOffset: Int) {
        let sources = scrolledRows + zip(grid, wrapped).map { ScrolledRow(cells: $0, wrapped: $1) }
        let cursorSource = scrolledRows.count + cursorRow
        var lines: [[Glyph]] = []
        var current: [Glyph] = []
        var width = 0
        var cursor = (line: 0, offset: 0)
        for (index, row) in sources.enumerated() {
            if index == cursorSource {
                cursor = (lines.count, width + cursorColumn + (pendingWrap ? 1 : 0))
            }
            let glyphs = Self.glyphs(row.cells)
            current += glyphs
            width += glyphs.reduce(0) { $0 + $1.width }
            if !row.wrapped || index == sources.count - 1 {
                lines.append(current)
                current = []
                width = 0
            }
        }
        return (lines, cursor.line, cursor.offset)
    }

    /// A row's characters, without the blank cells at its end.
    private static func glyphs(_ cells: [Cell]) -> [Glyph] {
        var end = cells.count
        while end > 0, cells[end - 1] == .blank { end -= 1 }
        var glyphs: [Glyph] = []
        for index in 0..<end {
            switch cells[index] {
            case .wideTail:
                continue
            case .text:
                let wide = index + 1 < cells.count && cells[index + 1] == .wideTail
                glyphs.append(Glyph(cell: cells[index], width: wide ? 2 : 1))
            case .blank:
                glyphs.append(Glyph(cell: .blank, width: 1))
            }
        }
        return glyphs
    }

    private static func fitted(_ row: [Cell], to count: Int) -> [Cell] {
        row.count >= count ? Array(row.prefix(count)) : row + Array(repeating: .blank, count: count - row.count)
    }
}
