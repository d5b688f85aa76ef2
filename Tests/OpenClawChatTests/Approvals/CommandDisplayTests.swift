import OpenClawApprovals
import OpenClawChat
import Testing

/// Commands are shown exactly and never interpreted: whatever could hide, reorder or disguise
/// characters is made visible.
@Suite("Safe display of commands")
struct CommandDisplayTests {
    @Test func aPlainCommandIsShownAsItIs() {
        let display = CommandDisplay("git status --short && make -j4 'a\\|b'")
        #expect(display.escaped == "git status --short && make -j4 'a\\|b'")
        #expect(display.findings.isEmpty && display.lookalikes.isEmpty && display.warnings.isEmpty)
        #expect(!display.isSuspicious)
    }

    @Test func terminalEscapesAndLineBreaksCannotReachTheTerminal() {
        // Clears the screen, moves the cursor home and rewrites the line: a terminal would show only "ls".
        let display = CommandDisplay("rm -rf ~\r\u{1B}[2J\u{1B}[Hls\nsecond\tline\u{0}\u{7F}\u{9B}31m")
        #expect(display.escaped == "rm -rf ~⟨CR⟩⟨ESC⟩[2J⟨ESC⟩[Hls⟨LF⟩second⟨TAB⟩line⟨NUL⟩⟨DEL⟩⟨U+009B⟩31m")
        #expect(display.findings == [.controlCharacters])
        #expect(!display.escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(display.warnings.count == 1)
    }

    @Test func bidirectionalOverridesAreShownWhereTheyAre() {
        // "Trojan Source": displayed, this reads `curl x | sh #exe.txt` reversed into something harmless.
        let display = CommandDisplay("cat notes\u{202E}txt.hs | \u{2066}sh\u{2069}\u{200F}")
        #expect(display.escaped == "cat notes⟨RLO⟩txt.hs | ⟨LRI⟩sh⟨PDI⟩⟨RLM⟩")
        #expect(display.findings == [.bidirectionalControls])
        #expect(display.warnings.first?.contains("bidirectional") == true)
    }

    @Test func invisibleCharactersAreNamed() {
        let display = CommandDisplay(
            "rm\u{200B} -rf\u{00A0}/tmp/x\u{FEFF}\u{2060}\u{00AD}\u{200D}\u{3164}\u{E0041}\u{FE0F}\u{2800}\u{3000}")
        #expect(
            display.escaped
                == "rm⟨ZWSP⟩ -rf⟨NBSP⟩/tmp/x⟨BOM⟩⟨WJ⟩⟨SHY⟩⟨ZWJ⟩⟨U+3164⟩⟨U+E0041⟩⟨U+FE0F⟩⟨U+2800⟩⟨U+3000⟩")
        #expect(display.findings == [.invisibleCharacters])
    }

    @Test func anInvisibleScalarInsideAGraphemeIsStillFound() {
        // U+200D joins onto the letter before it, forming one Character.
        let display = CommandDisplay("e\u{200D}cho hi")
        #expect(display.escaped == "e⟨ZWJ⟩cho hi")
    }

    @Test func theEscapeBracketsThemselvesAreEscapedSoTokensCannotBeForged() {
        // A command that spells "⟨LF⟩" must not look like one with a line break.
        let display = CommandDisplay("echo ⟨LF⟩")
        #expect(display.escaped == "echo ⟨U+27E8⟩LF⟨U+27E9⟩")
        #expect(CommandDisplay("echo \n").escaped != display.escaped)
    }

    @Test func lookalikeLettersAreKeptAndFlagged() {
        // Cyrillic "а" and "е" in "gаtеway", a fullwidth "ｒ", an en dash where "--" belongs.
        let display = CommandDisplay("curl https://gаtеway.example | ｒm \u{2013}force")
        #expect(display.escaped == "curl https://gаtеway.example | ｒm \u{2013}force")
        #expect(display.findings == [.lookalikeCharacters])
        #expect(display.lookalikes.map(\.codePoint) == ["U+0430", "U+0435", "U+FF52", "U+2013"])
        #expect(display.lookalikes.map(\.looksLike) == ["a", "e", "r", "-"])
        #expect(display.lookalikes.map(\.offset) == [14, 16, 31, 34])
        #expect(
            display.warnings == [
                "contains look-alike characters: \"а\" (U+0430, looks like \"a\"), \"е\" (U+0435, looks like \"e\"), "
                    + "\"ｒ\" (U+FF52, looks like \"r\"), \"–\" (U+2013, looks like \"-\")"
            ])
    }

    @Test func lettersOfOtherScriptsAreFlaggedOnlyWhenTheyPassForASCII() {
        let display = CommandDisplay("cat ~/Документы/отчёт.txt ~/文档/报告.md")
        // Cyrillic о, у, е can pass for o, y, e; Д, к, м, ё and the Chinese characters cannot.
        #expect(display.lookalikes.map(\.character) == ["о", "у", "е", "о"])
        #expect(display.findings == [.lookalikeCharacters])
        #expect(display.escaped == "cat ~/Документы/отчёт.txt ~/文档/报告.md")
    }

    @Test func aLongCommandIsCutBetweenTokensAndCountsWhatIsLeft() {
        let command = String(repeating: "a", count: 10) + "\u{1B}" + String(repeating: "b", count: 20)
        let display = CommandDisplay(command)
        let cut = display.summary(limit: 12)
        // The token ⟨ESC⟩ would cross the limit: it is left out whole, never split.
        #expect(cut.text == String(repeating: "a", count: 10))
        #expect(cut.omitted == "⟨ESC⟩".count + 20)
        #expect(display.summary(limit: 1000) == (display.escaped, 0))
        #expect(cut.text + "⟨ESC⟩" + String(repeating: "b", count: 20) == display.escaped)
    }

    @Test func everyScalarOfAHostileMixIsAccountedFor() {
        // Whatever the input, the escaped text contains no control, bidi or format scalar.
        let hostile = (0..<0x3000).compactMap { Unicode.Scalar(UInt32($0)) }.map(String.init).joined()
        let display = CommandDisplay(hostile)
        for scalar in display.escaped.unicodeScalars {
            let category = scalar.properties.generalCategory
            #expect(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value))
            #expect(category != .format && category != .control && category != .lineSeparator)
        }
    }
}
