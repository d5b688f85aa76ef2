import Testing

@testable import OpenClawChat

/// The form a local send and a history message are compared in: control characters dropped (tabs and
/// line breaks kept), whitespace trimmed at both ends. Most texts are already in that form and take a
/// one-pass path; these cases pin both paths to the same answers.
@Suite("Comparable text")
struct ComparableTextTests {
    @Test(arguments: [
        ("hello", "hello"),
        ("two\nlines\tand a tab", "two\nlines\tand a tab"),
        ("  padded  ", "padded"),
        ("\nleading break", "leading break"),
        ("bell\u{07} inside", "bell inside"),
        ("del\u{7F}", "del"),
        ("\u{1B}[31mred", "[31mred"),
        ("café", "café"),
        ("é at the start", "é at the start"),
        ("ends in a non-breaking space\u{00A0}", "ends in a non-breaking space"),
        ("\r\ncrlf\r\n", "crlf"),
        ("", ""),
        ("   ", ""),
        ("😀 emoji 😀", "😀 emoji 😀"),
    ])
    func theComparableFormIsTheSameWhicheverPathMakesIt(text: String, expected: String) {
        #expect(Transcript.comparableText(text) == expected)
    }
}
