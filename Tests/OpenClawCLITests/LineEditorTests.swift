import Testing

@testable import OpenClawCLI

@Suite("Line editor: editing, history, keys from the terminal")
struct LineEditorTests {
    static func typing(_ text: String, into editor: inout LineEditor) {
        for character in text { _ = editor.handle(.text(String(character))) }
    }

    @Test func typingMovingAndDeletingEditsAtTheCursor() {
        var editor = LineEditor()
        Self.typing("helo world", into: &editor)
        for _ in 0..<7 { _ = editor.handle(.left) }
        _ = editor.handle(.text("l"))
        #expect(editor.text == "hello world")
        #expect(editor.cursor == 4)
        _ = editor.handle(.end)
        _ = editor.handle(.backspace)
        #expect(editor.text == "hello worl")
        _ = editor.handle(.home)
        _ = editor.handle(.delete)
        #expect(editor.text == "ello worl")
        #expect(editor.handle(.left) == .none, "nothing left of the start")
    }

    @Test func wordJumpsAndWordDeletion() {
        var editor = LineEditor()
        Self.typing("send the report, please", into: &editor)
        _ = editor.handle(.wordLeft)
        #expect(editor.cursor == 17)
        _ = editor.handle(.wordLeft)
        _ = editor.handle(.wordLeft)
        #expect(editor.cursor == 5)
        _ = editor.handle(.wordRight)
        #expect(editor.cursor == 8)
        _ = editor.handle(.deleteWordBackward)
        #expect(editor.text == "send  report, please")
        _ = editor.handle(.deleteWordForward)
        #expect(editor.text == "send , please")
        _ = editor.handle(.deleteToEnd)
        #expect(editor.text == "send ")
        _ = editor.handle(.deleteToStart)
        #expect(editor.isEmpty)
    }

    @Test func ctrlJAddsALineAndEnterSendsEverything() {
        var editor = LineEditor()
        Self.typing("first", into: &editor)
        _ = editor.handle(.newline)
        Self.typing("second", into: &editor)
        _ = editor.handle(.home)
        #expect(editor.cursor == 6, "Home goes to the start of the current line")
        #expect(editor.handle(.enter) == .submit("first\nsecond"))
        #expect(editor.isEmpty)
    }

    @Test func aPasteIsInsertedWholeAndNotSent() {
        var editor = LineEditor()
        #expect(editor.handle(.paste("line one\nline two\n")) == .redraw)
        #expect(editor.text == "line one\nline two\n")
        #expect(editor.handle(.enter) == .submit("line one\nline two\n"))
    }

    @Test func historyRecallsOlderEntriesAndGivesBackTheDraft() {
        var editor = LineEditor(history: ["one", "two"])
        Self.typing("dra", into: &editor)
        _ = editor.handle(.up)
        #expect(editor.text == "two")
        _ = editor.handle(.up)
        #expect(editor.text == "one")
        #expect(editor.handle(.up) == .none, "no older entry")
        _ = editor.handle(.down)
        #expect(editor.text == "two")
        _ = editor.handle(.down)
        #expect(editor.text == "dra")
        _ = editor.handle(.text("ft"))
        #expect(editor.handle(.enter) == .submit("draft"))
        #expect(editor.history == ["one", "two", "draft"])
        _ = editor.handle(.enter)
        Self.typing("draft", into: &editor)
        _ = editor.handle(.enter)
        #expect(editor.history == ["one", "two", "draft"], "blank lines and repeats are not kept")
    }

    @Test func anAnswerToTheAgentsQuestionIsNeverKept() {
        var editor = LineEditor(history: ["one"])
        Self.typing("/answer ab12cd34 hunter2", into: &editor)
        #expect(editor.handle(.enter) == .submit("/answer ab12cd34 hunter2"))
        Self.typing("  /answer hunter3", into: &editor)
        _ = editor.handle(.enter)
        #expect(editor.history == ["one"], "a secret the agent asked for is neither recalled nor saved")
        Self.typing("/answers are kept", into: &editor)
        _ = editor.handle(.enter)
        #expect(editor.history == ["one", "/answers are kept"])
    }

    @Test func historyIsBounded() {
        var editor = LineEditor(history: (1...10).map(String.init), historyLimit: 3)
        #expect(editor.history == ["8", "9", "10"])
        Self.typing("11", into: &editor)
        _ = editor.handle(.enter)
        #expect(editor.history == ["9", "10", "11"])
    }

    @Test func ctrlDEndsInputOnlyOnAnEmptyLine() {
        var editor = LineEditor()
        #expect(editor.handle(.endOfInput) == .endOfInput)
        Self.typing("ab", into: &editor)
        _ = editor.handle(.home)
        #expect(editor.handle(.endOfInput) == .redraw)
        #expect(editor.text == "b")
    }

    @Test func keysAreDecodedFromSplitEscapeSequences() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("a\u{1B}[".utf8)) == [.text("a")])
        #expect(decoder.decode(Array("D\u{1B}[1;5C\u{1B}b\u{1B}[3~".utf8)) == [.left, .wordRight, .wordLeft, .delete])
        #expect(
            decoder.decode([0x0D, 0x0A, 0x7F, 0x03, 0x04, 0x17]) == [
                .enter, .newline, .backspace, .interrupt, .endOfInput, .deleteWordBackward,
            ])
        #expect(decoder.decode(Array("\u{1B}[A\u{1B}OB\u{1B}[H\u{1B}[F".utf8)) == [.up, .down, .home, .end])
    }

    @Test func multiByteCharactersSplitAcrossReadsStayWhole() {
        var decoder = KeyDecoder()
        let bytes = Array("é👩".utf8)
        #expect(decoder.decode([bytes[0]]) == [])
        #expect(decoder.decode(Array(bytes[1...2])) == [.text("é")])
        #expect(decoder.decode(Array(bytes[3...])) == [.text("👩")])
    }

    @Test func aBracketedPasteIsOneKeyEvenInPieces() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[200~first line\r\nsec".utf8)) == [])
        #expect(decoder.decode(Array("ond\u{1B}[20".utf8)) == [])
        #expect(decoder.decode(Array("1~x".utf8)) == [.paste("first line\nsecond"), .text("x")])
    }

    @Test func aLoneEscIsTheEscKey() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.isWaitingForMore)
        #expect(decoder.flushPendingEscape() == .escape)
        #expect(!decoder.isWaitingForMore)
    }

    @Test func aLongLineWrapsOntoRowsOfCellsWithTheCursorOnItsRow() {
        var editor = LineEditor()
        Self.typing(String(repeating: "x", count: 15) + "日本", into: &editor)
        // 2 (prompt) + 15 + 4 cells on rows of 10: "日" does not fit after 8 x's.
        let layout = InputLineLayout(promptWidth: 2, editor: editor, columns: 10)
        #expect(layout.rows == ["xxxxxxxx", "xxxxxxx日", "本"])
        #expect(layout.cursorRow == 2 && layout.cursorColumn == 2)
        _ = editor.handle(.home)
        let start = InputLineLayout(promptWidth: 2, editor: editor, columns: 10)
        #expect(start.cursorRow == 0 && start.cursorColumn == 2)
    }

    @Test func aLineTallerThanAllowedShowsTheRowsAroundTheCursor() {
        var editor = LineEditor()
        Self.typing(String(repeating: "y", count: 58), into: &editor)
        let layout = InputLineLayout(promptWidth: 2, editor: editor, columns: 10, maxRows: 3)
        #expect(layout.rows.count == 3 && !layout.startsWithPrompt)
        #expect(layout.cursorRow == 2 && layout.cursorColumn == 0, "a full last row puts the cursor on the next")
    }

    @Test func lineBreaksAndControlCharactersAreShownNotObeyed() {
        var editor = LineEditor()
        _ = editor.handle(.paste("a\nb\u{1B}[2J"))
        let layout = InputLineLayout(promptWidth: 2, editor: editor, columns: 40)
        #expect(layout.rows == ["a↵b^[[2J"])
        #expect(layout.cursorColumn == 10)
    }
}
