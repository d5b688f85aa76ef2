/// Text with the look it has on the terminal. Rendering works on spans (never on strings with escape
/// codes in them), so widths are measured and lines wrapped on what is visible; ``StyledLine/ansi(hyperlinks:)``
/// turns a line into bytes at the very end.
struct StyledSpan: Equatable {
    var text: String
    var style: SpanStyle = []
    var tint: Tint?
    /// Where the text links to: an OSC 8 hyperlink where the terminal supports them.
    var link: String?

    enum Tint: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case magenta = "35"
        case cyan = "36"
    }

    var width: Int { DisplayWidth.of(text) }
}

struct SpanStyle: OptionSet, Hashable {
    let rawValue: UInt8

    static let bold = SpanStyle(rawValue: 1 << 0)
    static let dim = SpanStyle(rawValue: 1 << 1)
    static let italic = SpanStyle(rawValue: 1 << 2)
    static let underline = SpanStyle(rawValue: 1 << 3)
    static let strikethrough = SpanStyle(rawValue: 1 << 4)

    /// SGR parameters, in a fixed order.
    var codes: [String] {
        var codes: [String] = []
        if contains(.bold) { codes.append("1") }
        if contains(.dim) { codes.append("2") }
        if contains(.italic) { codes.append("3") }
        if contains(.underline) { codes.append("4") }
        if contains(.strikethrough) { codes.append("9") }
        return codes
    }
}

/// One terminal row: spans that fit the width.
struct StyledLine: Equatable {
    var spans: [StyledSpan] = []

    init(_ spans: [StyledSpan] = []) { self.spans = spans }

    var width: Int { spans.reduce(0) { $0 + $1.width } }

    /// The row as terminal bytes: SGR codes around styled spans (reset after each), OSC 8 around links.
    func ansi(hyperlinks: Bool) -> String {
        var out = ""
        for span in spans where !span.text.isEmpty {
            var codes = span.style.codes
            if let tint = span.tint { codes.append(tint.rawValue) }
            var piece =
                codes.isEmpty ? span.text : "\u{1B}[" + codes.joined(separator: ";") + "m" + span.text + "\u{1B}[0m"
            if hyperlinks, let link = span.link {
                piece = "\u{1B}]8;;" + HyperlinkTarget.encoded(link) + "\u{1B}\\" + piece + "\u{1B}]8;;\u{1B}\\"
            }
            out += piece
        }
        return out
    }

    /// The row without styling (what a test or a width check reads).
    var plain: String { spans.map(\.text).joined() }
}
