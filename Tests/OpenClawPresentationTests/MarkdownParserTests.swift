import Testing

@testable import OpenClawPresentation

@Suite("Markdown blocks")
struct MarkdownParserTests {
    @Test func headingsParagraphsAndRules() {
        let text = """
            # Title #
            Some **bold** text
            on two lines.

            ### Smaller
            ---
            Setext title
            ===
            #hashtag is not a heading
            """
        #expect(
            MarkdownParser.parse(text) == [
                .heading(level: 1, text: "Title"),
                .paragraph("Some **bold** text\non two lines."),
                .heading(level: 3, text: "Smaller"),
                .rule,
                .heading(level: 1, text: "Setext title"),
                .paragraph("#hashtag is not a heading"),
            ])
    }

    @Test func dashesUnderTextMakeASetextHeadingNotARule() {
        #expect(MarkdownParser.parse("Result\n---\nmore") == [.heading(level: 2, text: "Result"), .paragraph("more")])
        #expect(MarkdownParser.parse("* * *") == [.rule])
    }

    @Test func bulletListsNestAndContinue() {
        let text = """
            Steps:
            - first
              still first
            - second
              - nested **a**
                - deeper
            - [x] done
            - [ ] todo

            After.
            """
        #expect(
            MarkdownParser.parse(text) == [
                .paragraph("Steps:"),
                .bulletList([
                    MarkdownListItem(text: "first\nstill first"),
                    MarkdownListItem(text: "second"),
                    MarkdownListItem(text: "nested **a**", level: 1),
                    MarkdownListItem(text: "deeper", level: 2),
                    MarkdownListItem(text: "done", isChecked: true),
                    MarkdownListItem(text: "todo", isChecked: false),
                ]),
                .paragraph("After."),
            ])
    }

    @Test func numberedListsAreRenumberedFromTheFirstNumber() {
        let text = """
            3. three
            1. four
            1) five

               - a bullet inside

            7. six
            """
        #expect(
            MarkdownParser.parse(text) == [
                .numberedList([
                    MarkdownListItem(text: "three", number: 3),
                    MarkdownListItem(text: "four", number: 4),
                    MarkdownListItem(text: "five", number: 5),
                    MarkdownListItem(text: "a bullet inside", level: 1),
                    MarkdownListItem(text: "six", number: 6),
                ])
            ])
    }

    @Test func aBulletListAfterANumberedOneIsANewList() {
        #expect(
            MarkdownParser.parse("1. one\n- bullet") == [
                .numberedList([MarkdownListItem(text: "one", number: 1)]),
                .bulletList([MarkdownListItem(text: "bullet")]),
            ])
    }

    @Test func fencedCodeKeepsItsTextAndLanguage() {
        let text = """
            Run:
            ```bash
            curl -s https://example.com | jq .
              indented # not a heading
            ```
            ~~~
            plain
            ~~~
            """
        #expect(
            MarkdownParser.parse(text) == [
                .paragraph("Run:"),
                .codeBlock(language: "bash", code: "curl -s https://example.com | jq .\n  indented # not a heading"),
                .codeBlock(language: nil, code: "plain"),
            ])
    }

    @Test func anUnclosedFenceOfAStreamingReplyRunsToTheEnd() {
        #expect(
            MarkdownParser.parse("Here:\n```swift\nlet x = 1\n") == [
                .paragraph("Here:"), .codeBlock(language: "swift", code: "let x = 1\n"),
            ])
    }

    @Test func codeInsideANumberedStepIsACodeBlockAndNumberingGoesOn() {
        let text = """
            1. Install:
               ```sh
               brew install xcodegen
               ```
            2. Generate
            """
        #expect(
            MarkdownParser.parse(text) == [
                .numberedList([MarkdownListItem(text: "Install:", number: 1)]),
                .codeBlock(language: "sh", code: "brew install xcodegen"),
                .numberedList([MarkdownListItem(text: "Generate", number: 2)]),
            ])
    }

    @Test func tablesAreParsedAndLaidOutMonospaced() throws {
        let text = """
            | Host | Port | Status |
            |:-----|-----:|:------:|
            | **mini** | 18789 | `up` |
            | [nas](http://nas) | 22 | down \\| maybe |
            | short |
            after
            """
        let blocks = MarkdownParser.parse(text)
        #expect(blocks.count == 2)
        guard case .table(let table) = blocks.first else {
            Issue.record("expected a table, got \(blocks)")
            return
        }
        #expect(table.header == ["Host", "Port", "Status"])
        #expect(table.alignments == [.leading, .trailing, .center])
        #expect(
            table.rows == [
                ["**mini**", "18789", "`up`"], ["[nas](http://nas)", "22", "down | maybe"], ["short", "", ""],
            ])
        #expect(
            table.monospacedText == """
                Host    Port     Status
                ─────  ─────  ────────────
                mini   18789       up
                nas       22  down | maybe
                short
                """)
        #expect(blocks.last == .paragraph("after"))
    }

    @Test func aTableStillWaitingForItsDelimiterRowIsAParagraph() {
        #expect(MarkdownParser.parse("| a | b |") == [.paragraph("| a | b |")])
        #expect(MarkdownParser.parse("a | b\nnot a delimiter") == [.paragraph("a | b\nnot a delimiter")])
    }

    @Test func quotesHoldBlocks() {
        #expect(
            MarkdownParser.parse("> Note:\n> - one\n>\n> two\nafter") == [
                .quote([.paragraph("Note:"), .bulletList([MarkdownListItem(text: "one")]), .paragraph("two")]),
                .paragraph("after"),
            ])
    }

    @Test func emptyAndWhitespaceTextHaveNoBlocks() {
        #expect(MarkdownParser.parse("").isEmpty)
        #expect(MarkdownParser.parse(" \n\r\n  ").isEmpty)
        #expect(MarkdownParser.parse("line\r\nnext") == [.paragraph("line\nnext")])
    }
}
