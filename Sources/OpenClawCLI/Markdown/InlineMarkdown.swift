/// The inline Markdown of one line as styled spans: `**bold**`, `*italic*`, `~~struck~~`, `` `code` ``,
/// `[links](url)`, `<autolinks>` and bare `https://` URLs, backslash escapes.
///
/// Deliberately simpler than CommonMark's delimiter rules: a delimiter pairs with the next matching one
/// on the same line (flanking whitespace and intraword `_` respected), anything unpaired stays literal.
/// Spans never cross lines: chat replies keep their line breaks, and a streamed line renders the same
/// whatever follows it.
struct InlineMarkdown {
    /// Whether links become OSC 8 hyperlinks; without them the URL is shown after the text.
    let hyperlinks: Bool

    func spans(_ text: String, base: StyledSpan = StyledSpan(text: "")) -> [StyledSpan] {
        let characters = Array(text)
        return Self.merged(parse(characters, 0..<characters.count, base: base))
    }

    private func parse(_ chars: [Character], _ range: Range<Int>, base: StyledSpan) -> [StyledSpan] {
        var out: [StyledSpan] = []
        var plain = ""
        func flush() {
            guard !plain.isEmpty else { return }
            var span = base
            span.text = plain
            out.append(span)
            plain = ""
        }
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let character = chars[index]
            if character == "\\", index + 1 < end, chars[index + 1].isASCII,
                chars[index + 1].isPunctuation
                    || chars[index + 1].isSymbol
            {
                plain.append(chars[index + 1])
                index += 2
                continue
            }
            if character == "`" {
                let run = Self.run(of: "`", in: chars, from: index, end: end)
                if let close = Self.closingBackticks(run, in: chars, from: index + run, end: end) {
                    flush()
                    var code = String(chars[(index + run)..<close])
                    if code.count >= 2, code.first == " ", code.last == " ", !code.allSatisfy({ $0 == " " }) {
                        code = String(code.dropFirst().dropLast())
                    }
                    var span = base
                    span.text = code
                    span.tint = .cyan
                    out.append(span)
                    index = close + run
                    continue
                }
                plain += String(repeating: "`", count: run)
                index += run
                continue
            }
            if character == "*" || character == "_" || character == "~" {
                let run = Self.run(of: character, in: chars, from: index, end: end)
                if let (length, close) = emphasis(character, run: run, in: chars, at: index, end: end) {
                    flush()
                    var inner = base
                    switch (character, length) {
                    case ("~", _): inner.style.insert(.strikethrough)
                    case (_, 2): inner.style.insert(.bold)
                    default: inner.style.insert(.italic)
                    }
                    out += parse(chars, (index + length)..<close, base: inner)
                    index = close + length
                    continue
                }
                plain += String(repeating: String(character), count: run)
                index += run
                continue
            }
            if character == "!", index + 1 < end, chars[index + 1] == "[",
                let link = Self.link(in: chars, at: index + 1, end: end)
            {
                flush()
                let alt = String(chars[link.label])
                out += linked(text: "[image: \(alt.isEmpty ? "…" : alt)]", url: link.url, base: base)
                index = link.next
                continue
            }
            if character == "[", let link = Self.link(in: chars, at: index, end: end) {
                flush()
                var style = base
                style.style.insert(.underline)
                style.tint = .blue
                style.link = link.url
                out += parse(chars, link.label, base: style)
                if !hyperlinks, String(chars[link.label]) != link.url {
                    out.append(StyledSpan(text: " (\(link.url))", style: .dim))
                }
                index = link.next
                continue
            }
            if character == "<", let close = chars[index..<end].firstIndex(of: ">") {
                let inside = String(chars[(index + 1)..<close])
                if Self.isURL(inside), !inside.contains(" ") {
                    flush()
                    out += linked(text: inside, url: inside, base: base)
                    index = close + 1
                    continue
                }
            }
            if character == "h", index == range.lowerBound || !chars[index - 1].isLetter,
                let urlEnd = Self.bareURLEnd(in: chars, from: index, end: end)
            {
                flush()
                let url = String(chars[index..<urlEnd])
                out += linked(text: url, url: url, base: base)
                index = urlEnd
                continue
            }
            plain.append(character)
            index += 1
        }
        flush()
        return out
    }

    private func linked(text: String, url: String, base: StyledSpan) -> [StyledSpan] {
        var span = base
        span.text = text
        span.style.insert(.underline)
        span.tint = .blue
        span.link = url
        var spans = [span]
        if !hyperlinks, text != url { spans.append(StyledSpan(text: " (\(url))", style: .dim)) }
        return spans
    }

    /// An emphasis opened at `index`: its delimiter length and where it closes.
    private func emphasis(_ marker: Character, run: Int, in chars: [Character], at index: Int, end: Int) -> (Int, Int)?
    {
        let length = marker == "~" ? 2 : min(run, 2)
        guard run >= length, marker != "~" || run == 2 else { return nil }
        let contentStart = index + length
        guard contentStart < end, !chars[contentStart].isWhitespace else { return nil }
        if marker == "_", index > 0, chars[index - 1].isLetter || chars[index - 1].isNumber { return nil }
        var search = contentStart + 1
        while search < end {
            guard chars[search] == marker else {
                search += 1
                continue
            }
            let closingRun = Self.run(of: marker, in: chars, from: search, end: end)
            // The closing delimiter is the end of the run (`***x***` closes `**` at its last two).
            let close = search + closingRun - length
            let after = search + closingRun
            if closingRun >= length, close > contentStart, !chars[close - 1].isWhitespace,
                marker != "_" || after >= end || !(chars[after].isLetter || chars[after].isNumber)
            {
                return (length, close)
            }
            search = after
        }
        return nil
    }

    private static func run(of character: Character, in chars: [Character], from index: Int, end: Int) -> Int {
        var count = 0
        while index + count < end, chars[index + count] == character { count += 1 }
        return count
    }

    private static func closingBackticks(_ length: Int, in chars: [Character], from start: Int, end: Int) -> Int? {
        var index = start
        while index < end {
            if chars[index] == "`" {
                let run = run(of: "`", in: chars, from: index, end: end)
                if run == length { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    /// `[label](url "title")` starting at `index`: the label's range, the URL, and the index after it.
    private static func link(
        in chars: [Character], at index: Int, end: Int
    ) -> (label: Range<Int>, url: String, next: Int)? {
        var depth = 0
        var close: Int?
        var position = index
        while position < end {
            switch chars[position] {
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { close = position }
            default: break
            }
            if close != nil { break }
            position += 1
        }
        guard let close, close + 1 < end, chars[close + 1] == "(" else { return nil }
        var parens = 0
        var urlEnd: Int?
        position = close + 2
        while position < end {
            if chars[position] == "(" { parens += 1 }
            if chars[position] == ")" {
                if parens == 0 {
                    urlEnd = position
                    break
                }
                parens -= 1
            }
            position += 1
        }
        guard let urlEnd else { return nil }
        var target = String(chars[(close + 2)..<urlEnd]).trimmingCharacters(in: " ")
        if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }
        if target.hasPrefix("<"), target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
        guard !target.isEmpty else { return nil }
        return ((index + 1)..<close, target, urlEnd + 1)
    }

    private static func isURL(_ text: String) -> Bool {
        text.hasPrefix("https://") || text.hasPrefix("http://") || text.hasPrefix("mailto:")
    }

    /// The end of a bare `http(s)://` URL at `index`: up to whitespace, without trailing punctuation
    /// (a closing parenthesis stays when the URL opened one).
    private static func bareURLEnd(in chars: [Character], from index: Int, end: Int) -> Int? {
        let head = String(chars[index..<min(end, index + 8)])
        guard head.hasPrefix("https://") || head.hasPrefix("http://") else { return nil }
        var position = index
        while position < end, !chars[position].isWhitespace, chars[position] != "<" { position += 1 }
        while position > index {
            let last = chars[position - 1]
            if ".,;:!?'\"*_~".contains(last) {
                position -= 1
            } else if last == ")" {
                let opens = chars[index..<position].count { $0 == "(" }
                let closes = chars[index..<position].count { $0 == ")" }
                if closes > opens { position -= 1 } else { break }
            } else {
                break
            }
        }
        let minimum = index + (head.hasPrefix("https://") ? 8 : 7)
        return position > minimum ? position : nil
    }

    /// Adjacent spans with the same look joined.
    static func merged(_ spans: [StyledSpan]) -> [StyledSpan] {
        var result: [StyledSpan] = []
        for span in spans where !span.text.isEmpty {
            if var last = result.last, last.style == span.style, last.tint == span.tint, last.link == span.link {
                last.text += span.text
                result[result.count - 1] = last
            } else {
                result.append(span)
            }
        }
        return result
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
