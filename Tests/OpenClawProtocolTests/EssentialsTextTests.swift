import Testing

@testable import OpenClawProtocol

/// The expected values are what swift-corelibs-foundation (Swift 6.3.1, Linux) returned for the call each
/// helper replaces, so the terminal prints the same bytes as before.
@Suite("Text helpers that replace corelibs Foundation's string API")
struct EssentialsTextTests {
    @Test(
        "fixed(_:digits:) rounds like printf's %.Nf",
        arguments: [
            (0.05, 1, "0.1"), (0.15, 1, "0.1"), (0.25, 1, "0.2"), (0.35, 1, "0.3"), (1.45, 1, "1.4"),
            (-0.04, 1, "-0.0"), (-0.0, 2, "-0.00"), (0.0, 1, "0.0"), (0.0, 0, "0"), (2.675, 2, "2.67"),
            (123456.789, 1, "123456.8"), (123456.789, 2, "123456.79"), (0.00005, 4, "0.0001"),
            (0.000049999, 4, "0.0000"), (9.99995, 1, "10.0"), (1.0 / 3, 4, "0.3333"),
            (Double.leastNonzeroMagnitude, 2, "0.00"),
            (0.00125, 4, "0.0013"), (12.345, 2, "12.35"), (2.5, 0, "2"), (3.5, 0, "4"), (59.95, 1, "60.0"),
            (1e20, 1, "100000000000000000000.0"), (4_294_967_296.5, 0, "4294967296"),
        ] as [(Double, Int, String)])
    func fixed(value: Double, digits: Int, expected: String) {
        #expect(EssentialsText.fixed(value, digits: digits) == expected)
    }

    @Test("fixed(_:digits:) writes non-finite values and the largest double as printf does")
    func fixedExtremes() {
        #expect(EssentialsText.fixed(.nan, digits: 1) == "nan")
        #expect(EssentialsText.fixed(-.nan, digits: 1) == "-nan")
        #expect(EssentialsText.fixed(.infinity, digits: 2) == "inf")
        #expect(EssentialsText.fixed(-.infinity, digits: 2) == "-inf")
        let largest = EssentialsText.fixed(.greatestFiniteMagnitude, digits: 1)
        #expect(largest.hasPrefix("17976931348623157081452742373170435679807056752584499659891747680315726078"))
        #expect(largest.hasSuffix("4026184124858368.0"))
        #expect(largest.count == 311)
    }

    @Test("trimming(.whitespaces) drops spaces, tabs and Unicode spaces, not line breaks")
    func trimmingWhitespaces() {
        #expect("".trimming(.whitespaces) == "")
        #expect(" \t \u{A0}\u{3000} ".trimming(.whitespaces) == "")
        #expect(" \u{A0}x y\u{3000} ".trimming(.whitespaces) == "x y")
        #expect("\u{200B}x\u{2009}".trimming(.whitespaces) == "x")
        #expect("\nx\n".trimming(.whitespaces) == "\nx\n")
        #expect(" \r\n".trimming(.whitespaces) == "\r\n")
        #expect("x\u{2028}".trimming(.whitespaces) == "x\u{2028}")
        #expect("\u{FEFF}x".trimming(.whitespaces) == "\u{FEFF}x")
        // By scalar, as Foundation: a combining mark on a trimmed space stays behind.
        #expect(" \u{301}a".trimming(.whitespaces).unicodeScalars.count == 2)
        #expect("  /new  ".dropFirst().trimming(.whitespaces) == "/new")
    }

    @Test("trimming(.whitespacesAndNewlines) also drops every line break Foundation knows")
    func trimmingWhitespacesAndNewlines() {
        #expect("".trimming(.whitespacesAndNewlines) == "")
        #expect(" \r\n\t\u{0B}\u{0C}\u{85}\u{2028}\u{2029}\u{3000}".trimming(.whitespacesAndNewlines) == "")
        #expect("\n x \r\n y\u{A0}\n".trimming(.whitespacesAndNewlines) == "x \r\n y")
        #expect("\u{1C}x".trimming(.whitespacesAndNewlines) == "\u{1C}x")
    }

    @Test("trimming(.scalars) drops exactly the given scalars")
    func trimmingScalars() {
        #expect("[::1]".trimming(.scalars("[]")) == "::1")
        #expect("[[]]".trimming(.scalars("[]")) == "")
        #expect(" \tbase64\r\n".trimming(.scalars(" \t\n\r")) == "base64")
        #expect("\u{A0}x".trimming(.scalars(" \t\n\r")) == "\u{A0}x")
    }

    @Test("padded(toUTF16Length:) pads or cuts by UTF-16 code units, as NSString's padding does")
    func padded() {
        #expect("ab".padded(toUTF16Length: 5) == "ab   ")
        #expect("abcdef".padded(toUTF16Length: 3) == "abc")
        #expect("é😀x".padded(toUTF16Length: 6) == "é😀x  ")
        #expect("".padded(toUTF16Length: 2) == "  ")
        #expect("abc".padded(toUTF16Length: 3) == "abc")
    }

    @Test("lastRange(of:) finds the last match, overlapping ones included")
    func lastRange() {
        let text = "a\r\u{1B}[2Kb\r\u{1B}[2Kc"
        let range = text.lastRange(of: "\r\u{1B}[2K")
        #expect(range.map { String(text[$0.upperBound...]) } == "c")
        let overlapping = "xaaa"
        #expect(
            overlapping.lastRange(of: "aa").map {
                overlapping.distance(from: overlapping.startIndex, to: $0.lowerBound)
            } == 2)
        #expect("abc".lastRange(of: "d") == nil)
        #expect("abc".lastRange(of: "") == nil)
        #expect("".lastRange(of: "a") == nil)
    }

    @Test("firstRange(caseInsensitive:) finds the first match in any case")
    func firstRangeCaseInsensitive() {
        let text = "x-Approve-y APPROVE"
        #expect(text.firstRange(caseInsensitive: "approve").map { String(text[$0]) } == "Approve")
        #expect("ÉCOLE".firstRange(caseInsensitive: "école") != nil)
        let typed = "please Run A Command: ls"
        #expect(typed.firstRange(caseInsensitive: "RUN a command").map { String(typed[$0]) } == "Run A Command")
        #expect("école".firstRange(caseInsensitive: "ÉCOLE") != nil)
        #expect("abc".firstRange(caseInsensitive: "abcd") == nil)
        #expect("abc".firstRange(caseInsensitive: "") == nil)
    }

    @Test("commonPrefix(with:caseInsensitive:) keeps this text's characters")
    func commonPrefix() {
        #expect("abcd".commonPrefix(with: "ABxy", caseInsensitive: true) == "ab")
        #expect("abcd".commonPrefix(with: "ABxy", caseInsensitive: false) == "")
        #expect("abcd".commonPrefix(with: "abxy", caseInsensitive: false) == "ab")
        #expect("Straße".commonPrefix(with: "STRASSE", caseInsensitive: true) == "Stra")
        #expect("".commonPrefix(with: "a", caseInsensitive: true) == "")
        #expect("abc".commonPrefix(with: "abc", caseInsensitive: true) == "abc")
    }

    @Test("percentEncodingAllButAlphanumerics() escapes all but ASCII letters and digits, as corelibs does")
    func percentEncoding() {
        #expect("a b".percentEncodingAllButAlphanumerics() == "a%20b")
        #expect(
            "agent:main:é/ü😀".percentEncodingAllButAlphanumerics()
                == "agent%3Amain%3A%C3%A9%2F%C3%BC%F0%9F%98%80")
        #expect("".percentEncodingAllButAlphanumerics() == "")
        #expect("\n".percentEncodingAllButAlphanumerics() == "%0A")
        #expect("Az09-_.~".percentEncodingAllButAlphanumerics() == "Az09%2D%5F%2E%7E")
        #expect("٣".percentEncodingAllButAlphanumerics() == "%D9%A3")
    }

    @Test("canonicallyComposed is Unicode Normalization Form C")
    func canonicallyComposed() {
        #expect(Array("e\u{301}".canonicallyComposed.unicodeScalars) == ["\u{E9}"])
        #expect(Array("\u{212B}".canonicallyComposed.unicodeScalars) == ["\u{C5}"])
        #expect(Array("\u{1100}\u{1161}\u{11A8}".canonicallyComposed.unicodeScalars) == ["\u{AC01}"])
        #expect(Array("q\u{307}\u{323}".canonicallyComposed.unicodeScalars) == ["q", "\u{323}", "\u{307}"])
        #expect("ﬁ".canonicallyComposed == "ﬁ")
        #expect("".canonicallyComposed == "")
    }
}
