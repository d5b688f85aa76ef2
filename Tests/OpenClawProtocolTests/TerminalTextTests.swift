import Testing

@testable import OpenClawProtocol

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
        ("zero-width space between letters", "pay\u{200B}pal"),
        ("bidi marks", "a\u{200E}b\u{200F}c\u{061C}d"),
        ("word joiner and invisible operators", "x\u{2060}y\u{2064}z"),
        ("byte order mark and soft hyphen", "\u{FEFF}ad\u{AD}min"),
        ("Mongolian vowel separator", "a\u{180E}b"),
        ("hidden tag message", "ok\u{E0049}\u{E0067}\u{E006E}\u{E007F}"),
        ("zero-width joiner between letters", "ad\u{200D}min"),
        ("zero-width joiner after a digit", "1\u{200D}2"),
    ]

    /// Every character a terminal must not receive raw from a gateway, listed independently of the
    /// escaper's own table.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20 where scalar != "\n" && scalar != "\t": true
        case 0x7F...0x9F, 0xAD, 0x061C, 0x180E, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064: true
        case 0x2066...0x2069, 0xFEFF, 0xE0000...0xE007F: true
        default: false
        }
    }

    @Test(arguments: hostile.map(\.text))
    func hostileTextHasNoControlCharactersLeft(text: String) {
        for escaped in [TerminalText.escaped(text), TerminalText.escapedLine(text)] {
            let bad = escaped.unicodeScalars.filter(Self.isForbidden)
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

    /// Each character by its code point, at both ends of every range.
    @Test(
        arguments: [
            (0x80, "<U+0080>"), (0x9F, "<U+009F>"), (0xAD, "<U+00AD>"), (0x061C, "<U+061C>"), (0x180E, "<U+180E>"),
            (0x200B, "<U+200B>"), (0x200C, "<U+200C>"), (0x200D, "<U+200D>"), (0x200E, "<U+200E>"),
            (0x200F, "<U+200F>"), (0x2028, "<U+2028>"), (0x2029, "<U+2029>"), (0x202A, "<U+202A>"),
            (0x202E, "<U+202E>"), (0x2060, "<U+2060>"), (0x2064, "<U+2064>"), (0x2066, "<U+2066>"),
            (0x2069, "<U+2069>"), (0x206F, "<U+206F>"), (0xFEFF, "<U+FEFF>"), (0xFFF9, "<U+FFF9>"),
            (0xFFFB, "<U+FFFB>"), (0xE0000, "<U+E0000>"), (0xE0041, "<U+E0041>"), (0xE007F, "<U+E007F>"),
        ] as [(UInt32, String)])
    func invisibleAndBidiCharactersAreShownByCodePoint(value: UInt32, shown: String) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let text = "a" + String(Character(scalar)) + "b"
        #expect(TerminalText.escaped(text) == "a\(shown)b")
        #expect(TerminalText.escapedLine(text) == "a\(shown)b")
        #expect(TerminalText.needsEscaping(text))
    }

    /// Characters next to the escaped ranges, and variation selectors, are ordinary text.
    @Test(
        arguments: [
            0x7E, 0xA0, 0xAC, 0xAE, 0x061B, 0x200A, 0x2010, 0x2027, 0x202F, 0x205F, 0x2070, 0xFE0F, 0xFEFE,
            0xFFFC, 0xE0080, 0xE0100,
        ] as [UInt32])
    func neighboursOfTheRangesAreKept(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let text = "a" + String(Character(scalar)) + "b"
        #expect(TerminalText.escaped(text) == text)
        #expect(!TerminalText.needsEscaping(text))
    }

    /// A joiner between two emoji makes one picture and is kept; anywhere else it hides and is shown.
    @Test func emojiJoinersAreKeptOtherJoinersShown() {
        for emoji in ["👩‍💻", "👨‍👩‍👧", "🏳️‍🌈", "❤️‍🔥", "🧑🏽‍🚀"] {
            #expect(TerminalText.escaped(emoji) == emoji, "\(emoji.unicodeScalars.map(\.value))")
            #expect(!TerminalText.needsEscaping(emoji))
        }
        #expect(TerminalText.escaped("👋🏽\u{200D}") == "👋🏽<U+200D>")
        #expect(TerminalText.escaped("\u{200D}👩") == "<U+200D>👩")
        #expect(TerminalText.escaped("a\u{200D}👩") == "a<U+200D>👩")
        #expect(TerminalText.escaped("👩\u{200D}a") == "👩<U+200D>a")
        #expect(TerminalText.escaped("#\u{200D}👩") == "#<U+200D>👩")
        #expect(TerminalText.escapedLine("ad\u{200D}min 👩‍💻") == "ad<U+200D>min 👩‍💻")
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
