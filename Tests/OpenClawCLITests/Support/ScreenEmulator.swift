/// A small terminal, enough to tell what a person sees after a program's output: a grid of cells,
/// a cursor, autowrap with xterm's pending-wrap rule, the cursor moves, erases, insertions and
/// deletions, scroll regions, saved cursor and the alternate screen that `openclaw-chat` (or a terminal
/// program like it) may write, and the rows scrolled off the top kept as scrollback.
///
/// Tests compare screens, not raw bytes: the same screen can be drawn by many byte sequences, and bytes
/// that "contain everything" can still draw a broken screen (a row overwritten, a copy left behind).
/// Widths are counted here on their own, not with the program's ``DisplayWidth``, so a mistake there
/// shows as a wrong screen instead of agreeing with itself: East Asian wide characters and emoji take
/// two cells, combining marks and zero-width characters none.
///
/// Resizing follows xterm by default: rows are cut or padded, never re-wrapped. Made with `reflows`, it
/// re-wraps them as most terminals people use do (see `ScreenEmulator+Reflow.swift`); for that every row
/// remembers whether the terminal wrapped it at the right margin (a *soft* wrap) or a line feed ended it.
struct ScreenEmulator: CustomStringConvertible {
    /// One cell: a character (with any combining marks), the right half of a wide one, or blank (never
    /// written, or erased: a written space is `.text(" ")`).
    enum Cell: Equatable {
        case blank
        case text(String)
        case wideTail
    }

    /// A row kept in the scrollback: its cells and whether it was soft-wrapped into the next.
    struct ScrolledRow {
        var cells: [Cell]
        var wrapped: Bool
    }

    /// Whether a resize re-wraps the rows (VTE, kitty, tmux …) instead of cutting them (xterm).
    let reflows: Bool
    var columns: Int
    var rowCount: Int
    var grid: [[Cell]]
    /// For each row of `grid`: whether the terminal wrapped it at the right margin into the next row.
    var wrapped: [Bool]
    /// Rows scrolled off the top of the main screen, oldest first.
    var scrolledRows: [ScrolledRow] = []
    /// Row and column of the cursor, from 0.
    var cursorRow = 0
    var cursorColumn = 0
    /// Set after a character is written in the last column: the next one wraps first (xterm, VT100).
    var pendingWrap = false
    /// Auto-wrap mode (DECAWM, `ESC[?7h`/`ESC[?7l`): off, characters past the right margin overwrite the
    /// last column instead of wrapping.
    var autowrap = true
    var saved: (row: Int, column: Int)?
    var scrollTop = 0
    var scrollBottom: Int
    var mainScreen: (grid: [[Cell]], wrapped: [Bool])?
    /// An escape sequence not complete at the end of the last ``feed(_:)``.
    private var unfinished = ""

    init(columns: Int, rows: Int, reflows: Bool = false) {
        self.reflows = reflows
        self.columns = columns
        self.rowCount = rows
        self.grid = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
        self.wrapped = Array(repeating: false, count: rows)
        self.scrollBottom = rows - 1
    }

    /// The screen after `output` was written to a new terminal of this size.
    init(columns: Int, rows: Int, reflows: Bool = false, output: String) {
        self.init(columns: columns, rows: rows, reflows: reflows)
        feed(output)
    }

    // MARK: Reading the screen

    /// The visible rows, trailing blanks dropped.
    var rows: [String] { grid.map(Self.text) }

    /// Rows scrolled off the top of the main screen, oldest first, trailing blanks dropped.
    var scrollback: [String] { scrolledRows.map { Self.text($0.cells) } }

    /// Scrollback then the visible rows, without the blank rows at the bottom: everything a person can
    /// scroll through.
    var transcript: [String] {
        var lines = scrollback + rows
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The visible row under the cursor.
    var cursorLine: String { Self.text(grid[cursorRow]) }

    var description: String {
        let border = "+" + String(repeating: "-", count: columns) + "+"
        var lines = scrollback.map { "  " + $0 }
        if !scrollback.isEmpty { lines.append("  (scrollback above)") }
        lines.append(border)
        for (index, row) in grid.enumerated() {
            let mark = index == cursorRow ? ">" : "|"
            lines.append(mark + Self.text(row) + " " + (index == cursorRow ? "  ← cursor column \(cursorColumn)" : ""))
        }
        lines.append(border)
        return lines.joined(separator: "\n")
    }

    static func text(_ row: [Cell]) -> String {
        var out = ""
        for cell in row {
            switch cell {
            case .blank: out += " "
            case .text(let text): out += text
            case .wideTail: break
            }
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return out
    }

    // MARK: Size

    /// The window changed size (`TIOCSWINSZ`): rows are cut or padded on the right; when rows go, those
    /// above the cursor scroll into the scrollback first, as xterm keeps the cursor's row on screen.
    /// In reflow mode (on the main screen) they are re-wrapped instead: ``reflow(columns:rows:)``.
    mutating func resize(columns newColumns: Int, rows newRows: Int) {
        if reflows, mainScreen == nil {
            reflow(columns: newColumns, rows: newRows)
            return
        }
        for index in grid.indices { grid[index] = resized(grid[index], to: newColumns) }
        if newRows < rowCount {
            let excess = max(0, cursorRow - (newRows - 1))
            for _ in 0..<excess {
                pushScrollback(grid.removeFirst(), wrapped: wrapped.removeFirst())
            }
            cursorRow -= excess
            grid = Array(grid.prefix(newRows))
            wrapped = Array(wrapped.prefix(newRows))
        } else {
            grid += Array(repeating: Array(repeating: .blank, count: newColumns), count: newRows - rowCount)
            wrapped += Array(repeating: false, count: newRows - rowCount)
        }
        columns = newColumns
        rowCount = newRows
        scrollTop = 0
        scrollBottom = newRows - 1
        cursorColumn = min(cursorColumn, newColumns - 1)
        pendingWrap = false
    }

    private func resized(_ row: [Cell], to count: Int) -> [Cell] {
        if row.count >= count {
            var cut = Array(row.prefix(count))
            // Half a wide character is not shown.
            if case .text(let text)? = cut.last, row.count > count, row[count] == .wideTail, !text.isEmpty {
                cut[count - 1] = .blank
            }
            return cut
        }
        return row + Array(repeating: .blank, count: count - row.count)
    }

    // MARK: Writing

    mutating func feed(_ output: String) {
        let scalars = Array((unfinished + output).unicodeScalars)
        unfinished = ""
        var index = 0
        var text = String.UnicodeScalarView()
        func flushText() {
            guard !text.isEmpty else { return }
            for character in String(text) { put(character) }
            text = String.UnicodeScalarView()
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.value >= 0x20, scalar.value != 0x7F, !(0x80..<0xA0).contains(scalar.value) {
                text.append(scalar)
                index += 1
                continue
            }
            flushText()
            if scalar == "\u{1B}" {
                guard let next = escape(scalars, from: index) else {
                    unfinished = String(String.UnicodeScalarView(scalars[index...]))
                    return
                }
                index = next
                continue
            }
            control(scalar)
            index += 1
        }
        flushText()
    }

    private mutating func control(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "\r":
            cursorColumn = 0
            pendingWrap = false
        case "\n", "\u{0B}", "\u{0C}":
            lineFeed()
        case "\u{08}":
            cursorColumn = max(0, cursorColumn - (pendingWrap ? 0 : 1))
            pendingWrap = false
        case "\t":
            cursorColumn = min(columns - 1, (cursorColumn / 8 + 1) * 8)
            pendingWrap = false
        default:
            break  // BEL and the rest show nothing
        }
    }

    private mutating func put(_ character: Character) {
        let width = Self.width(of: character)
        if width == 0 {
            attachToPrevious(character)
            return
        }
        if !autowrap, pendingWrap || cursorColumn + width > columns {
            pendingWrap = false
            cursorColumn = max(0, columns - width)
        } else if pendingWrap || cursorColumn + width > columns {
            // A soft wrap: the row and the next hold one line (a wide character that does not fit
            // leaves the last cell blank).
            wrapped[cursorRow] = true
            cursorColumn = 0
            lineFeed()
        }
        clearWide(at: cursorRow, cursorColumn)
        if width == 2 { clearWide(at: cursorRow, cursorColumn + 1) }
        grid[cursorRow][cursorColumn] = .text(String(character))
        if width == 2 { grid[cursorRow][cursorColumn + 1] = .wideTail }
        cursorColumn += width
        if cursorColumn >= columns {
            cursorColumn = columns - 1
            pendingWrap = autowrap
        }
    }

    /// A combining mark or zero-width character joins the character before the cursor.
    private mutating func attachToPrevious(_ character: Character) {
        var column = pendingWrap ? cursorColumn : cursorColumn - 1
        guard column >= 0 else { return }
        if grid[cursorRow][column] == .wideTail, column > 0 { column -= 1 }
        if case .text(let text) = grid[cursorRow][column] {
            grid[cursorRow][column] = .text(text + String(character))
        }
    }

    /// Overwriting half of a wide character blanks its other half, as terminals do.
    private mutating func clearWide(at row: Int, _ column: Int) {
        guard column < columns else { return }
        switch grid[row][column] {
        case .wideTail where column > 0:
            grid[row][column - 1] = .blank
        case .text where column + 1 < columns && grid[row][column + 1] == .wideTail:
            grid[row][column + 1] = .blank
        default:
            break
        }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if cursorRow == scrollBottom {
            scrollUp(1)
        } else if cursorRow < rowCount - 1 {
            cursorRow += 1
        }
    }

    private mutating func pushScrollback(_ row: [Cell], wrapped: Bool) {
        guard mainScreen == nil else { return }
        scrolledRows.append(ScrolledRow(cells: row, wrapped: wrapped))
    }

    var blankRow: [Cell] { Array(repeating: .blank, count: columns) }

    private mutating func scrollUp(_ count: Int) {
        for _ in 0..<count {
            let removed = grid.remove(at: scrollTop)
            let removedWrapped = wrapped.remove(at: scrollTop)
            if scrollTop == 0 { pushScrollback(removed, wrapped: removedWrapped) }
            grid.insert(blankRow, at: scrollBottom)
            wrapped.insert(false, at: scrollBottom)
        }
    }

    private mutating func scrollDown(_ count: Int) {
        for _ in 0..<count {
            grid.remove(at: scrollBottom)
            wrapped.remove(at: scrollBottom)
            grid.insert(blankRow, at: scrollTop)
            wrapped.insert(false, at: scrollTop)
        }
    }

    // MARK: Escape sequences

    /// Carries out the sequence starting at `start` (an ESC); the index after it, nil when incomplete.
    private mutating func escape(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 1 < scalars.count else { return nil }
        let kind = scalars[start + 1]
        switch kind {
        case "[":
            var index = start + 2
            var body = ""
            while index < scalars.count {
                let scalar = scalars[index]
                if (0x40...0x7E).contains(scalar.value) {
                    csi(body, final: scalar)
                    return index + 1
                }
                body.unicodeScalars.append(scalar)
                index += 1
            }
            return nil
        case "]", "P", "_", "^":
            // OSC (hyperlinks, titles), DCS and the like: nothing on screen; end at BEL or ST.
            var index = start + 2
            while index < scalars.count {
                if scalars[index] == "\u{07}" { return index + 1 }
                if scalars[index] == "\u{1B}" {
                    guard index + 1 < scalars.count else { return nil }
                    if scalars[index + 1] == "\\" { return index + 2 }
                }
                index += 1
            }
            return nil
        case "(", ")", "*", "+", "#":
            return start + 2 < scalars.count ? start + 3 : nil
        case "7":
            saved = (cursorRow, cursorColumn)
        case "8":
            restoreCursor()
        case "D":
            lineFeed()
        case "E":
            cursorColumn = 0
            lineFeed()
        case "M":
            pendingWrap = false
            if cursorRow == scrollTop { scrollDown(1) } else { cursorRow = max(0, cursorRow - 1) }
        case "c":
            self = ScreenEmulator(columns: columns, rows: rowCount, reflows: reflows)
        default:
            break  // ESC = / ESC > (keypad modes) and others: nothing to show
        }
        return start + 2
    }

    mutating func restoreCursor() {
        guard let saved else { return }
        cursorRow = min(saved.row, rowCount - 1)
        cursorColumn = min(saved.column, columns - 1)
        pendingWrap = false
    }

    private mutating func csi(_ body: String, final: Unicode.Scalar) {
        let isPrivate = body.hasPrefix("?")
        let numbers = body.drop { $0 == "?" || $0 == ">" || $0 == "=" }.split(
            separator: ";", omittingEmptySubsequences: false
        ).map { Int($0) }
        func parameter(_ index: Int, _ fallback: Int) -> Int {
            guard index < numbers.count, let value = numbers[index], value > 0 else { return fallback }
            return value
        }
        let count = parameter(0, 1)
        if final != "m" { pendingWrap = false }
        switch final {
        case "A": cursorRow = max(cursorRow >= scrollTop ? scrollTop : 0, cursorRow - count)
        case "B": cursorRow = min(cursorRow <= scrollBottom ? scrollBottom : rowCount - 1, cursorRow + count)
        case "C": cursorColumn = min(columns - 1, cursorColumn + count)
        case "D": cursorColumn = max(0, cursorColumn - count)
        case "E":
            cursorRow = min(rowCount - 1, cursorRow + count)
            cursorColumn = 0
        case "F":
            cursorRow = max(0, cursorRow - count)
            cursorColumn = 0
        case "G", "`": cursorColumn = min(columns, count) - 1
        case "d": cursorRow = min(rowCount, count) - 1
        case "H", "f":
            cursorRow = min(rowCount, parameter(0, 1)) - 1
            cursorColumn = min(columns, parameter(1, 1)) - 1
        case "J": eraseInDisplay(numbers.first.flatMap { $0 } ?? 0)
        case "K": eraseInLine(numbers.first.flatMap { $0 } ?? 0)
        case "X":
            for column in cursorColumn..<min(columns, cursorColumn + count) { grid[cursorRow][column] = .blank }
            if cursorColumn + count >= columns { wrapped[cursorRow] = false }
        case "@":
            let room = columns - cursorColumn
            let inserted = min(count, room)
            grid[cursorRow].insert(contentsOf: Array(repeating: .blank, count: inserted), at: cursorColumn)
            grid[cursorRow].removeLast(inserted)
        case "P":
            let removed = min(count, columns - cursorColumn)
            grid[cursorRow].removeSubrange(cursorColumn..<(cursorColumn + removed))
            grid[cursorRow] += Array(repeating: .blank, count: removed)
            wrapped[cursorRow] = false
        case "L" where (scrollTop...scrollBottom).contains(cursorRow):
            for _ in 0..<min(count, scrollBottom - cursorRow + 1) {
                grid.remove(at: scrollBottom)
                wrapped.remove(at: scrollBottom)
                grid.insert(blankRow, at: cursorRow)
                wrapped.insert(false, at: cursorRow)
            }
            cursorColumn = 0
        case "M" where (scrollTop...scrollBottom).contains(cursorRow):
            for _ in 0..<min(count, scrollBottom - cursorRow + 1) {
                grid.remove(at: cursorRow)
                wrapped.remove(at: cursorRow)
                grid.insert(blankRow, at: scrollBottom)
                wrapped.insert(false, at: scrollBottom)
            }
            cursorColumn = 0
        case "S" where !isPrivate: scrollUp(count)
        case "T" where !isPrivate: scrollDown(count)
        case "r" where !isPrivate:
            let top = parameter(0, 1) - 1
            let bottom = min(rowCount, parameter(1, rowCount)) - 1
            if top < bottom {
                scrollTop = top
                scrollBottom = bottom
                cursorRow = 0
                cursorColumn = 0
            }
        case "s" where !isPrivate: saved = (cursorRow, cursorColumn)
        case "u" where !isPrivate: restoreCursor()
        case "h" where isPrivate: setPrivateModes(numbers, on: true)
        case "l" where isPrivate: setPrivateModes(numbers, on: false)
        default:
            break  // SGR (`m`) and modes change how text looks, not what it is
        }
    }
}
