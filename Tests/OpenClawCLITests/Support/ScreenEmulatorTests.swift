import Testing

/// The test terminal itself: a wrong emulator would make every screen test meaningless.
@Suite("ScreenEmulator: the test terminal")
struct ScreenEmulatorTests {
    @Test func textCarriageReturnAndLineFeed() {
        let screen = ScreenEmulator(columns: 10, rows: 3, output: "hello\r\nworld\rW")
        #expect(screen.rows == ["hello", "World", ""])
        #expect(screen.cursorRow == 1 && screen.cursorColumn == 1)
    }

    @Test func aLineFeedAloneKeepsTheColumn() {
        let screen = ScreenEmulator(columns: 10, rows: 3, output: "ab\ncd")
        #expect(screen.rows == ["ab", "  cd", ""])
    }

    @Test func autowrapWaitsForTheNextCharacter() {
        // Ten characters fill the row; the cursor stays in the last column until another one comes.
        var screen = ScreenEmulator(columns: 10, rows: 3, output: "0123456789")
        #expect(screen.cursorRow == 0 && screen.cursorColumn == 9)
        screen.feed("\r\n")
        #expect(screen.rows == ["0123456789", "", ""], "no blank row after a full one")
        screen.feed("0123456789x")
        #expect(screen.rows == ["0123456789", "0123456789", "x"])
    }

    @Test func withAutowrapOffTheLastColumnIsOverwritten() {
        var screen = ScreenEmulator(columns: 5, rows: 2, output: "\u{1B}[?7labcdefg\u{1B}[?7h")
        #expect(screen.rows == ["abcdg", ""])
        #expect(screen.cursorRow == 0 && screen.cursorColumn == 4)
        screen.feed("\rvwxyz!")
        #expect(screen.rows == ["vwxyz", "!"], "on again, it wraps")
    }

    @Test func backspaceAndTab() {
        let screen = ScreenEmulator(columns: 20, rows: 2, output: "abc\u{08}\u{08}X\tY")
        #expect(screen.rows == ["aXc     Y", ""])
        #expect(screen.cursorColumn == 9)
    }

    @Test func wideCharactersTakeTwoCellsAndWrapWhole() {
        var screen = ScreenEmulator(columns: 5, rows: 3, output: "日本語")
        #expect(screen.rows == ["日本", "語", ""])
        #expect(screen.cursorRow == 1 && screen.cursorColumn == 2)
        screen = ScreenEmulator(columns: 10, rows: 1, output: "🎉ok")
        #expect(screen.cursorColumn == 4)
    }

    @Test func combiningMarksAndZeroWidthTakeNoCell() {
        let screen = ScreenEmulator(columns: 10, rows: 1, output: "e\u{301}x\u{200B}y👍🏽🇫🇷")
        #expect(screen.rows == ["e\u{301}x\u{200B}y👍🏽🇫🇷"])
        #expect(screen.cursorColumn == 7)
        #expect(ScreenEmulator.width(of: "👨‍👩‍👧") == 2)
        #expect(ScreenEmulator.width(of: "ｱ") == 1)
        #expect(ScreenEmulator.width(of: "Ａ") == 2)
    }

    @Test func cursorMovesAndPositions() {
        var screen = ScreenEmulator(columns: 10, rows: 4)
        screen.feed("\u{1B}[3;4Hx\u{1B}[Ay\u{1B}[2Bz\u{1B}[5Dw\u{1B}[2Cv\u{1B}[1Gu\u{1B}[1dt\u{1B}[2;2fs")
        #expect(screen.rows == [" t", " s  y", "   x", "uw  vz"])
        #expect(screen.cursorRow == 1 && screen.cursorColumn == 2)
        // Moves stop at the edges.
        screen.feed("\u{1B}[99A\u{1B}[99D")
        #expect(screen.cursorRow == 0 && screen.cursorColumn == 0)
    }

    @Test func erasingLinesAndTheScreen() {
        let text = "aaaaa\r\nbbbbb\r\nccccc"
        var screen = ScreenEmulator(columns: 5, rows: 3, output: text + "\u{1B}[2;3H\u{1B}[K")
        #expect(screen.rows == ["aaaaa", "bb", "ccccc"])
        screen = ScreenEmulator(columns: 5, rows: 3, output: text + "\u{1B}[2;3H\u{1B}[1K")
        #expect(screen.rows == ["aaaaa", "   bb", "ccccc"])
        screen = ScreenEmulator(columns: 5, rows: 3, output: text + "\u{1B}[2;3H\u{1B}[2K")
        #expect(screen.rows == ["aaaaa", "", "ccccc"])
        screen = ScreenEmulator(columns: 5, rows: 3, output: text + "\u{1B}[2;3H\u{1B}[J")
        #expect(screen.rows == ["aaaaa", "bb", ""])
        screen = ScreenEmulator(columns: 5, rows: 3, output: text + "\u{1B}[2;3H\u{1B}[1J")
        #expect(screen.rows == ["", "   bb", "ccccc"])
        screen = ScreenEmulator(columns: 5, rows: 3, output: text + "\u{1B}[2J")
        #expect(screen.rows == ["", "", ""])
    }

    @Test func erasingHalfAWideCharacterErasesIt() {
        let screen = ScreenEmulator(columns: 6, rows: 1, output: "a日b\u{1B}[3G\u{1B}[K")
        #expect(screen.rows == ["a"])
    }

    @Test func scrollingKeepsTheScrollback() {
        let screen = ScreenEmulator(columns: 5, rows: 2, output: "one\r\ntwo\r\nthree\r\nfour")
        #expect(screen.scrollback == ["one", "two"])
        #expect(screen.rows == ["three", "four"])
        #expect(screen.transcript == ["one", "two", "three", "four"])
    }

    @Test func insertAndDeleteCharactersAndLines() {
        var screen = ScreenEmulator(columns: 6, rows: 3, output: "abcdef\u{1B}[1;2H\u{1B}[2@")
        #expect(screen.rows == ["a  bcd", "", ""])
        screen.feed("\u{1B}[2P")
        #expect(screen.rows == ["abcd", "", ""])
        screen = ScreenEmulator(columns: 6, rows: 3, output: "1\r\n2\r\n3\u{1B}[1;1H\u{1B}[L")
        #expect(screen.rows == ["", "1", "2"])
        screen.feed("\u{1B}[2M")
        #expect(screen.rows == ["2", "", ""])
    }

    @Test func aScrollRegionScrollsOnlyItsRows() {
        var screen = ScreenEmulator(columns: 5, rows: 4, output: "top\r\n\r\n\r\nfoot")
        screen.feed("\u{1B}[2;3r\u{1B}[2;1Ha\r\nb\r\nc")
        #expect(screen.rows == ["top", "b", "c", "foot"])
        #expect(screen.scrollback.isEmpty)
    }

    @Test func savedCursorAndTheAlternateScreen() {
        var screen = ScreenEmulator(columns: 8, rows: 2, output: "ab\u{1B}7\r\ncd\u{1B}8X")
        #expect(screen.rows == ["abX", "cd"])
        screen.feed("\u{1B}[?1049hfull\u{1B}[2J")
        #expect(screen.rows == ["", ""])
        screen.feed("\u{1B}[?1049l")
        #expect(screen.rows == ["abX", "cd"])
        #expect(screen.cursorRow == 0 && screen.cursorColumn == 3)
    }

    @Test func stylesAndHyperlinksLeaveOnlyTheirText() {
        let link = "\u{1B}]8;;https://example.test\u{1B}\\here\u{1B}]8;;\u{1B}\\"
        let screen = ScreenEmulator(columns: 20, rows: 1, output: "\u{1B}[1;32mgo\u{1B}[0m " + link)
        #expect(screen.rows == ["go here"])
    }

    @Test func aSequenceSplitAcrossWritesIsJoined() {
        var screen = ScreenEmulator(columns: 10, rows: 2)
        screen.feed("abc\u{1B}[")
        screen.feed("2Dx")
        #expect(screen.rows == ["axc", ""])
    }

    @Test func resizingCutsRowsAndKeepsTheCursorRowOnScreen() {
        var screen = ScreenEmulator(columns: 10, rows: 3, output: "0123456789\r\nab\r\ncd")
        screen.resize(columns: 4, rows: 2)
        #expect(screen.rows == ["ab", "cd"])
        #expect(screen.scrollback == ["0123"])
        #expect(screen.cursorRow == 1 && screen.cursorColumn == 2)
    }
}
