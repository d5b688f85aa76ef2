import Testing

@testable import OpenClawProtocol

/// JSON written by this package (every `--json` line, logs, stored files) carries no character that
/// hides or reorders text raw: a program that prints a string it read shows the same as the escape.
@Suite("JSON serializer: hidden characters as \\u escapes")
struct JSONHiddenCharacterTests {
    static let cases: [(text: String, json: String)] = [
        ("8-bit CSI \u{9B}2J", #""8-bit CSI \u009b2J""#),
        ("C1 ends \u{80}\u{9F}", #""C1 ends \u0080\u009f""#),
        ("DEL \u{7F}", #""DEL \u007f""#),
        ("access\u{202E}lanigiro\u{202C}", #""access\u202elanigiro\u202c""#),
        ("\u{2066}isolate\u{2069}", #""\u2066isolate\u2069""#),
        ("marks \u{200E}\u{200F}\u{061C}", #""marks \u200e\u200f\u061c""#),
        ("pay\u{200B}pal", #""pay\u200bpal""#),
        ("zwnj\u{200C} zwj\u{200D} wj\u{2060} op\u{2064}", #""zwnj\u200c zwj\u200d wj\u2060 op\u2064""#),
        ("\u{FEFF}bom soft\u{AD}hyphen mvs\u{180E}", #""\ufeffbom soft\u00adhyphen mvs\u180e""#),
        ("lines\u{2028}\u{2029}", #""lines\u2028\u2029""#),
        ("tags\u{E0001}\u{E0041}\u{E007F}", #""tags\udb40\udc01\udb40\udc41\udb40\udc7f""#),
    ]

    @Test(arguments: cases.indices)
    func hiddenCharactersAreWrittenAsEscapes(index: Int) throws {
        let (text, json) = Self.cases[index]
        let written = JSONSerializer.string(.string(text))
        #expect(written == json)
        #expect(written.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F })
        #expect(try JSONParser().parse(written) == .string(text))
    }

    /// Everything else stays as it is, emoji sequences (their joiner escaped, decoding the same) included.
    @Test func ordinaryTextIsWrittenAsItIs() throws {
        let text = "Héllo “world” — 日本語, arrows → ←, © «guillemets», RTL שלום, variation ❤️"
        #expect(JSONSerializer.string(.string(text)) == "\"" + text + "\"")
        let family = "👨‍👩‍👧"
        #expect(JSONSerializer.string(.string(family)) == #""👨\u200d👩\u200d👧""#)
        #expect(try JSONParser().parse(JSONSerializer.string(.string(family))) == .string(family))
    }

    @Test func keysAreEscapedToo() {
        #expect(JSONSerializer.string(["k\u{202E}": 1]) == #"{"k\u202e":1}"#)
    }
}
