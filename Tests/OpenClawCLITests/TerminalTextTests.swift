import Testing

@testable import OpenClawCLI

@Suite("Terminal safety: gateway and agent text never reaches the terminal raw")
struct TerminalTextTests {
    /// Sequences an agent could use to take over the screen.
    static let hostile: [(name: String, text: String)] = [
        ("colour", "\u{1B}[31mred\u{1B}[0m"),
        ("cursor up and erase line", "ok\u{1B}[1A\u{1B}[2Kfaked"),
        ("clear screen", "\u{1B}[2J\u{1B}[H"),
        ("window title (OSC 0, BEL)", "\u{1B}]0;pwned\u{07}"),
        ("clipboard (OSC 52, ST)", "\u{1B}]52;c;ZWNobyBoaQ==\u{1B}\\"),
        ("hyperlink (OSC 8)", "\u{1B}]8;;https://evil.test\u{1B}\\click\u{1B}]8;;\u{1B}\\"),
        ("8-bit CSI", "\u{9B}2J"),
        ("DCS", "\u{1B}Pq#0\u{1B}\\"),
        ("carriage return overwrite", "rm -rf /\rls"),
        ("backspaces", "safe\u{08}\u{08}\u{08}\u{08}evil"),
        ("NUL and DEL", "a\u{00}b\u{7F}c"),
        ("bidi override", "access\u{202E}lanigiro\u{202C}"),
        ("bidi isolate", "\u{2067}abc\u{2069}"),
        ("the ends of each escaped range", "a\u{80}b\u{9F}c\u{202A}d\u{2066}e\u{2069}"),
    ]

    @Test(arguments: hostile.map(\.text))
    func hostileTextHasNoControlCharactersLeft(text: String) {
        for escaped in [TerminalText.escaped(text), TerminalText.escapedLine(text)] {
            let bad = escaped.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            }
            #expect(bad.isEmpty, "left in \(escaped.debugDescription): \(bad.map(\.value))")
        }
        #expect(TerminalText.needsEscaping(text))
    }

    @Test func escapesAreShownVisiblyInCaretNotation() {
        #expect(TerminalText.escaped("\u{1B}[31mred\u{1B}[0m") == "^[[31mred^[[0m")
        #expect(TerminalText.escaped("\u{1B}]0;pwned\u{07}") == "^[]0;pwned^G")
        #expect(TerminalText.escaped("a\u{00}b\u{7F}c") == "a^@b^?c")
        #expect(TerminalText.escaped("rm -rf /\rls") == "rm -rf /^Mls")
        #expect(TerminalText.escaped("\u{9B}2J") == "<U+009B>2J")
        #expect(TerminalText.escaped("access\u{202E}txt") == "access<U+202E>txt")
    }

    @Test func linesTabsAndCRLFSurviveInTextWithLines() {
        #expect(TerminalText.escaped("one\ntwo\tcolumn") == "one\ntwo\tcolumn")
        #expect(TerminalText.escaped("HTTP/1.1 200 OK\r\nbody\r\n") == "HTTP/1.1 200 OK\nbody\n")
        #expect(!TerminalText.needsEscaping("one\ntwo\tcolumn"))
    }

    @Test func oneLineTextTurnsLineBreaksIntoSpaces() {
        #expect(TerminalText.escapedLine("title\nsecond\tline\r\nthird") == "title second line third")
        #expect(TerminalText.escapedLine("evil\u{1B}]0;x\u{07}") == "evil^[]0;x^G")
    }

    @Test func ordinaryTextIsUnchanged() {
        let text = "Héllo “world” — 日本語, emoji 👩‍👩‍👧, arrows → ←, © «guillemets» and RTL שלום"
        #expect(TerminalText.escaped(text) == text)
        #expect(TerminalText.escapedLine(text) == text)
        #expect(!TerminalText.needsEscaping(text))
    }

    /// Replies stream in chunks that can cut a sequence anywhere: each chunk escaped alone gives the same
    /// text as the whole escaped at once.
    @Test func chunkedTextEscapesLikeTheWhole() {
        let text = Self.hostile.map(\.text).joined(separator: " then ")
        let whole = TerminalText.escaped(text)
        let scalars = Array(text.unicodeScalars)
        for size in [1, 2, 3, 7] {
            var streamed = ""
            var start = 0
            while start < scalars.count {
                let end = min(start + size, scalars.count)
                var chunk = String.UnicodeScalarView()
                chunk.append(contentsOf: scalars[start..<end])
                streamed += TerminalText.escaped(String(chunk))
                start = end
            }
            #expect(streamed == whole, "chunk size \(size)")
        }
    }
}
