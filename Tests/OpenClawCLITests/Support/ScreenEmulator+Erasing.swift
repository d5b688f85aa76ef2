/// Erasing and the private modes (auto-wrap, the alternate screen) of the test terminal.
extension ScreenEmulator {
    mutating func setPrivateModes(_ modes: [Int?], on: Bool) {
        if modes.contains(7) { autowrap = on }
        for mode in modes.compactMap({ $0 }) where [47, 1047, 1049].contains(mode) {
            if on, mainScreen == nil {
                if mode == 1049 { saved = (cursorRow, cursorColumn) }
                mainScreen = (grid, wrapped)
                grid = Array(repeating: blankRow, count: rowCount)
                wrapped = Array(repeating: false, count: rowCount)
            } else if !on, let main = mainScreen {
                grid = main.grid
                wrapped = main.wrapped
                mainScreen = nil
                if mode == 1049 { restoreCursor() }
            }
        }
    }

    mutating func eraseInLine(_ mode: Int) {
        let range: Range<Int> =
            switch mode {
            case 0: cursorColumn..<columns
            case 1: 0..<(cursorColumn + 1)
            default: 0..<columns
            }
        // A wide character cut in half by the erase goes entirely.
        if range.lowerBound > 0, grid[cursorRow][range.lowerBound] == .wideTail {
            grid[cursorRow][range.lowerBound - 1] = .blank
        }
        if range.upperBound < columns, grid[cursorRow][range.upperBound] == .wideTail {
            grid[cursorRow][range.upperBound] = .blank
        }
        for column in range { grid[cursorRow][column] = .blank }
        // The row's last cell erased: nothing continues on the next row any more (kitty keeps the mark in
        // that cell; xterm and VTE clear it with the row's text).
        if range.upperBound >= columns { wrapped[cursorRow] = false }
    }

    mutating func eraseInDisplay(_ mode: Int) {
        switch mode {
        case 0:
            eraseInLine(0)
            for row in (cursorRow + 1)..<rowCount {
                grid[row] = blankRow
                wrapped[row] = false
            }
        case 1:
            eraseInLine(1)
            for row in 0..<cursorRow {
                grid[row] = blankRow
                wrapped[row] = false
            }
        case 2:
            grid = Array(repeating: blankRow, count: rowCount)
            wrapped = Array(repeating: false, count: rowCount)
        case 3:
            scrolledRows = []
        default:
            break
        }
    }
}
