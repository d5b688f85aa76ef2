import Testing

/// The test terminal re-wrapping its rows on resize, as most people's terminals do: a model wrong here
/// would pass a program that leaves stale rows in real terminals.
@Suite("ScreenEmulator: a terminal that reflows")
struct ScreenEmulatorReflowTests {
    @Test func narrowingRewrapsLinesAndWideningJoinsWhatTheTerminalWrapped() {
        var screen = ScreenEmulator(columns: 10, rows: 4, reflows: true, output: "0123456789abc\r\nxy")
        #expect(screen.rows == ["0123456789", "abc", "xy", ""])
        screen.resize(columns: 5, rows: 4)
        // Every row is a line, the blank one at the bottom too: one row no longer fits and scrolls off.
        #expect(screen.scrollback == ["01234"])
        #expect(screen.rows == ["56789", "abc", "xy", ""])
        #expect(screen.cursorRow == 2 && screen.cursorColumn == 2)
        screen.resize(columns: 10, rows: 4)
        #expect(screen.scrollback.isEmpty)
        #expect(screen.rows == ["0123456789", "abc", "xy", ""])
        #expect(screen.cursorRow == 2 && screen.cursorColumn == 2)
    }

    @Test func linesEndedByALineFeedAreNeverJoined() {
        var screen = ScreenEmulator(columns: 5, rows: 3, reflows: true, output: "abc\r\ndefgh\r\nij")
        screen.resize(columns: 12, rows: 3)
        #expect(screen.rows == ["abc", "defgh", "ij"])
    }

    @Test func theDefaultCutsRowsAsXtermDoes() {
        var screen = ScreenEmulator(columns: 10, rows: 3, output: "0123456789abc")
        screen.resize(columns: 5, rows: 3)
        #expect(screen.rows == ["01234", "abc", ""])
    }

    @Test func wideCharactersAreNeverSplitAndTheCellTheyLeaveIsNotText() {
        var screen = ScreenEmulator(columns: 5, rows: 3, reflows: true, output: "ab日本語x")
        #expect(screen.rows == ["ab日", "本語x", ""])
        screen.resize(columns: 7, rows: 3)
        #expect(screen.rows == ["ab日本", "語x", ""])
        screen.resize(columns: 4, rows: 3)
        #expect(screen.transcript == ["ab日", "本語", "x"])
        #expect(screen.cursorLine == "x" && screen.cursorColumn == 1)
    }

    @Test func theCursorKeepsItsCharacter() {
        var screen = ScreenEmulator(columns: 10, rows: 3, reflows: true, output: "abcdefghij\r\u{1B}[7C")
        #expect(screen.cursorRow == 0 && screen.cursorColumn == 7)
        screen.resize(columns: 4, rows: 3)
        #expect(screen.transcript == ["abcd", "efgh", "ij"])
        #expect(screen.cursorLine == "efgh" && screen.cursorColumn == 3)
    }

    @Test func aCursorAfterTheTextStaysOnTheRowOfItsLastCharacter() {
        // A line that exactly fills the new width keeps the cursor on its row, waiting to wrap.
        var screen = ScreenEmulator(columns: 10, rows: 3, reflows: true, output: "› draft")
        screen.resize(columns: 7, rows: 3)
        #expect(screen.rows == ["› draft", "", ""])
        #expect(screen.cursorRow == 0 && screen.cursorColumn == 6)
        screen.feed("X")
        #expect(screen.rows == ["› draft", "X", ""])
        screen = ScreenEmulator(columns: 10, rows: 3, reflows: true, output: "› draft")
        screen.resize(columns: 5, rows: 3)
        #expect(screen.transcript == ["› dra", "ft"])
        #expect(screen.cursorLine == "ft" && screen.cursorColumn == 2)
    }

    @Test func rowsThatNoLongerFitGoToTheScrollbackAndComeBack() {
        var screen = ScreenEmulator(columns: 10, rows: 3, reflows: true, output: "one\r\ntwo\r\nthree long")
        screen.resize(columns: 5, rows: 3)
        #expect(screen.scrollback == ["one"])
        #expect(screen.rows == ["two", "three", " long"])
        #expect(screen.cursorRow == 2 && screen.cursorColumn == 4)
        screen.resize(columns: 10, rows: 3)
        #expect(screen.scrollback.isEmpty)
        #expect(screen.rows == ["one", "two", "three long"])
        #expect(screen.cursorRow == 2 && screen.cursorColumn == 9)
    }

    @Test func blankRowsBelowGiveWayBeforeTheCursorsRowLeavesTheScreen() {
        var screen = ScreenEmulator(columns: 10, rows: 4, reflows: true, output: "0123456789\r")
        screen.resize(columns: 5, rows: 4)
        #expect(screen.scrollback.isEmpty)
        #expect(screen.rows == ["01234", "56789", "", ""])
        #expect(screen.cursorRow == 0 && screen.cursorColumn == 0)
    }

    @Test func aWrapIsForgottenWhenTheRowsEndIsErased() {
        // Erasing to the end of a wrapped row ends its line there, as the terminals do.
        var screen = ScreenEmulator(columns: 5, rows: 3, reflows: true, output: "abcdefg\u{1B}[A\u{1B}[3G\u{1B}[K")
        #expect(screen.rows == ["ab", "fg", ""])
        screen.resize(columns: 10, rows: 3)
        #expect(screen.rows == ["ab", "fg", ""])
    }

    @Test func transcriptLinesJoinWhatTheTerminalWrapped() {
        var screen = ScreenEmulator(columns: 6, rows: 3, reflows: true, output: "one two three\r\nfour")
        #expect(screen.transcript == ["one tw", "o thre", "e", "four"])
        #expect(screen.transcriptLines == ["one two three", "four"])
        screen.resize(columns: 4, rows: 3)
        #expect(screen.transcriptLines == ["one two three", "four"])
    }
}
