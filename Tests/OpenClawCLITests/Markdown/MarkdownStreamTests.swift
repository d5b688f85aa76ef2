import Testing

@testable import OpenClawCLI

@Suite("Markdown in the terminal while streaming")
struct MarkdownStreamTests {
    static let renderer = MarkdownTerminalRenderer(width: 40, hyperlinks: false)

    /// Streams `text` in pieces of `size` characters (the live row shown), as a reply arrives.
    static func streamed(_ text: String, pieceSize size: Int) -> ScreenModel {
        var stream = MarkdownStream(renderer: renderer, showsLiveLine: true)
        var screen = ScreenModel()
        var rest = Substring(text)
        while !rest.isEmpty {
            screen.feed(stream.append(String(rest.prefix(size))))
            rest = rest.dropFirst(size)
        }
        screen.feed(stream.finish())
        return screen
    }

    @Test(arguments: [1, 2, 3, 5, 7, 11, 64, 100_000])
    func aStreamedReplyEndsExactlyAsTheWholeReplyRenders(pieceSize: Int) {
        let whole = ScreenModel(MarkdownOutput.render(MarkdownFixture.reply, with: Self.renderer))
        let screen = Self.streamed(MarkdownFixture.reply, pieceSize: pieceSize)
        #expect(screen.lines == whole.lines)
        #expect(screen.current.isEmpty)
    }

    @Test func theLineBeingWrittenIsShownLiveAndReplacedWhenItEnds() {
        var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
        var screen = ScreenModel()
        screen.feed(stream.append("Some **bold"))
        #expect(screen.lines.isEmpty)
        #expect(screen.current == "Some **bold")
        screen.feed(stream.append("** text\n"))
        #expect(screen.lines == ["Some \u{1B}[1mbold\u{1B}[0m text"])
        #expect(screen.current.isEmpty)
        screen.feed(stream.append(String(repeating: "x", count: 100)))
        #expect(DisplayWidth.of(screen.current) <= 40)
        #expect(screen.current.hasPrefix("…"))
    }

    @Test func aLongParagraphPrintsItsFullRowsAsItStreams() {
        var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
        var screen = ScreenModel()
        screen.feed(stream.append("one two three four five six seven eight nine ten eleven twelve"))
        #expect(screen.lines == ["one two three four five six seven eight"], "the full row printed for good")
        #expect(screen.current == "nine ten eleven twelve", "only the last row is live")
        screen.feed(stream.append(" thirteen fourteen fifteen\n"))
        #expect(
            screen.lines == [
                "one two three four five six seven eight", "nine ten eleven twelve thirteen fourteen", "fifteen",
            ])
    }

    @Test func aParagraphNarrowedMidwayGoesOnAtTheNewWidth() {
        var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
        var screen = ScreenModel()
        screen.feed(stream.append("one two three four five six seven eight nine ten eleven twelve"))
        #expect(screen.lines == ["one two three four five six seven eight"])
        stream.resize(to: 20)
        screen.feed(stream.append(" thirteen fourteen fifteen sixteen"))
        screen.feed(stream.finish())
        #expect(
            screen.lines == [
                "one two three four five six seven eight", "nine ten eleven", "twelve thirteen", "fourteen fifteen",
                "sixteen",
            ])
    }

    @Test func rowsInsideAnOpenLinkWaitForItToClose() {
        var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
        var screen = ScreenModel()
        // The link's target vanishes when it closes (hyperlinks on): its words must not be printed early.
        let linked = MarkdownTerminalRenderer(width: 40, hyperlinks: true)
        stream = MarkdownStream(renderer: linked, showsLiveLine: true)
        screen.feed(stream.append("see [the link text](https://example.com/a/very/long/path/that"))
        #expect(screen.lines.isEmpty)
        screen.feed(stream.append("/goes/on) and more words after it\n"))
        let whole = ScreenModel(
            MarkdownOutput.render(
                "see [the link text](https://example.com/a/very/long/path/that/goes/on) and more words after it\n",
                with: linked))
        #expect(screen.lines == whole.lines)
    }

    @Test func aTableIsHeldUntilItEndsThenFittedToTheWidth() {
        var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
        var screen = ScreenModel()
        screen.feed(stream.append("| a | b |\n|---|---|\n| 1 | 2 |\n"))
        #expect(screen.lines.isEmpty, "rows of an open table are not final")
        #expect(ScreenModel.strippingStyles(screen.current) == "(table, 3 rows…)")
        screen.feed(stream.append("\nafter\n"))
        #expect(
            screen.lines.map(ScreenModel.strippingStyles) == [
                "┌───┬───┐", "│ a │ b │", "├───┼───┤", "│ 1 │ 2 │", "└───┴───┘", "", "after",
            ])
    }

    @Test func listItemsArePrintedAsTheyArriveAndNeverReprinted() {
        var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
        var screen = ScreenModel()
        screen.feed(stream.append("1. one\n"))
        #expect(screen.lines.map(ScreenModel.strippingStyles) == ["1. one"])
        screen.feed(stream.append("2. two\n   - inner\n"))
        screen.feed(stream.finish())
        #expect(screen.lines.map(ScreenModel.strippingStyles) == ["1. one", "2. two", "  ◦ inner"])
    }

    @Test func anUnclosedFenceIsClosedWhenTheReplyEnds() {
        var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
        var screen = ScreenModel()
        screen.feed(stream.append("```\nplain code"))
        #expect(ScreenModel.strippingStyles(screen.current) == "│ plain code")
        screen.feed(stream.finish())
        #expect(
            screen.lines.map(ScreenModel.strippingStyles) == [
                "╭─" + String(repeating: "─", count: 38), "│ plain code", "╰" + String(repeating: "─", count: 39),
            ])
    }

    @Test func controlSequencesInTheReplyAreShownEscapedNeverSent() {
        let hostile = "Hi \u{1B}]0;owned\u{07} there\u{1B}[2J **x** \u{9B}31m\n```\n\u{1B}[1A code\n```\n"
        for pieceSize in [1, 4, 1000] {
            var stream = MarkdownStream(renderer: Self.renderer, showsLiveLine: true)
            var output = ""
            var rest = Substring(hostile)
            while !rest.isEmpty {
                output += stream.append(String(rest.prefix(pieceSize)))
                rest = rest.dropFirst(pieceSize)
            }
            output += stream.finish()
            #expect(output.contains("^[]0;owned^G there^[[2J"))
            #expect(output.contains("<U+009B>31m"))
            #expect(output.contains("^[[1A code"))
            #expect(!output.unicodeScalars.contains { $0.value == 0x07 || $0.value == 0x9B })
            // Every ESC left is one of ours: SGR styling or the live row's clear.
            var rest2 = Substring(output)
            while let escape = rest2.firstIndex(of: "\u{1B}") {
                let after = rest2[rest2.index(after: escape)...]
                let sgr =
                    after.hasPrefix("[")
                    && after.dropFirst().prefix { $0 != "m" && $0 != "K" }.allSatisfy {
                        $0.isNumber || $0 == ";"
                    }
                #expect(sgr, "unexpected escape: \(String(after.prefix(12)).debugDescription)")
                rest2 = after
            }
        }
    }
}
