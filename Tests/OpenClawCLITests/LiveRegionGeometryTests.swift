import Testing

@testable import OpenClawCLI

/// How many rows the live region takes once a reflowing terminal has re-wrapped it: the count the
/// erase after a resize goes up by.
@Suite("Live region geometry in a terminal that reflows")
struct LiveRegionGeometryTests {
    static let live = String(repeating: "w", count: 30)
    static let status = "● gateway · session main · model m · thinking low"

    @Test func atTheWidthDrawnEachLineIsOneRow() {
        let region = LiveRegionGeometry(lines: [Self.live, "› draft", Self.status], cursorLine: 1, cursorColumn: 7)
        #expect(region.rowsAboveCursor(columns: 60) == 1)
        #expect(region.rowCount(columns: 60) == 3)
    }

    @Test func narrowerEachLineTakesTheRowsItWrapsTo() {
        let region = LiveRegionGeometry(lines: [Self.live, "› draft", Self.status], cursorLine: 1, cursorColumn: 7)
        #expect(region.rowsAboveCursor(columns: 20) == 2)
        #expect(region.rowCount(columns: 20) == 2 + 1 + 3)
        // "› draft" on two rows at 5: the cursor after "ft", on the second.
        #expect(region.rowsAboveCursor(columns: 5) == 6 + 1)
        #expect(region.rowCount(columns: 5) == 6 + 2 + 10)
    }

    @Test func aLineThatExactlyFillsARowTakesOneAndKeepsTheCursor() {
        #expect(LiveRegionGeometry.wrap("abcde", columns: 5, cursorColumn: 5) == (1, 0))
        #expect(LiveRegionGeometry.wrap("abcdef", columns: 5, cursorColumn: 6) == (2, 1))
        #expect(LiveRegionGeometry.wrap("", columns: 5, cursorColumn: 3) == (1, 0))
    }

    @Test func wideCharactersMoveWholeAndMarksTakeNoCell() {
        #expect(LiveRegionGeometry.wrap("ab日本", columns: 5, cursorColumn: 4) == (2, 1))
        #expect(LiveRegionGeometry.wrap("ab日本", columns: 5, cursorColumn: 3) == (2, 0))
        #expect(LiveRegionGeometry.wrap("e\u{301}e\u{301}e\u{301}", columns: 3) == (1, 0))
    }

    /// The count agrees with the test terminal, which lays the rows out on its own: drawn at 40 columns,
    /// then narrowed to each width, the cursor is as many rows under the region's first.
    @Test(arguments: [39, 30, 17, 10, 7, 6, 5, 3])
    func agreesWithTheTestTerminal(columns: Int) {
        let lines = [
            "live row: 日本語 text of twenty-nine", "› a draft that is long enough", "", "● gateway · main · thinking low",
        ]
        for (cursorLine, cursorColumn) in [(1, 30), (1, 4), (2, 0)] {
            var screen = ScreenEmulator(columns: 40, rows: 80, reflows: true)
            screen.feed(lines.joined(separator: "\r\n") + "\u{1B}[\(lines.count - 1 - cursorLine)A\r")
            if cursorColumn > 0 { screen.feed("\u{1B}[\(cursorColumn)C") }
            screen.resize(columns: columns, rows: 80)
            let region = LiveRegionGeometry(lines: lines, cursorLine: cursorLine, cursorColumn: cursorColumn)
            #expect(
                region.rowsAboveCursor(columns: columns) == screen.scrollback.count + screen.cursorRow,
                "cursor on line \(cursorLine) column \(cursorColumn):\n\(screen)")
            #expect(region.rowCount(columns: columns) == screen.transcript.count, "\(screen)")
        }
    }
}
