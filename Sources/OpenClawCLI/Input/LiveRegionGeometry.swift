/// The live region (live row, input line, status row) as a terminal that reflows keeps it, so it can be
/// erased exactly after the window changed width.
///
/// Each row of the region is drawn as a line of its own: ended by CR LF, never longer than the width it
/// was drawn at. Such a terminal re-wraps a line at the new width as if it were written there (a wide
/// character that does not fit starts the next row; written spaces count, cells never written do not),
/// and keeps the cursor on its character: after the text, on the row of the text's last character, never
/// on a row of its own (VTE's rewrap specification, kitty's rewrap, tmux 3.3). A line that exactly fills
/// a row takes one row, whatever pending wrap the terminal has. Lines the terminal wrapped itself
/// because it was already narrower than the width drawn at are the same lines: the count holds for them.
struct LiveRegionGeometry: Equatable, Sendable {
    /// The rows as drawn, top first, without escape sequences.
    var lines: [String]
    /// The line the cursor is on and its column there, in cells.
    var cursorLine: Int
    var cursorColumn: Int

    /// How many rows up the region's first row is from the cursor's, `columns` wide.
    func rowsAboveCursor(columns: Int) -> Int {
        guard lines.indices.contains(cursorLine) else { return 0 }
        let above = lines[..<cursorLine].reduce(0) { $0 + Self.wrap($1, columns: columns).rows }
        return above + Self.wrap(lines[cursorLine], columns: columns, cursorColumn: cursorColumn).cursorRow
    }

    /// The rows the region takes, `columns` wide.
    func rowCount(columns: Int) -> Int {
        lines.reduce(0) { $0 + Self.wrap($1, columns: columns).rows }
    }

    /// The rows `line` takes at `columns`, and the row holding cell `cursorColumn` of it (past the text:
    /// the row of its last character).
    static func wrap(_ line: String, columns: Int, cursorColumn: Int = 0) -> (rows: Int, cursorRow: Int) {
        let columns = max(1, columns)
        var row = 0
        var column = 0
        var offset = 0
        var cursorRow: Int?
        for character in line {
            let width = DisplayWidth.of(character)
            guard width > 0 else { continue }
            if column + width > columns, column > 0 {
                row += 1
                column = 0
            }
            if cursorRow == nil, cursorColumn < offset + width { cursorRow = row }
            column += width
            offset += width
        }
        return (row + 1, cursorRow ?? row)
    }
}
