import Foundation

/// What a terminal shows after the renderer's output, for the few controls the renderer writes: text,
/// line feeds, and `CR ESC[2K` (back to the start of the row and clear it, for the live row). Rows that
/// ended with a line feed are ``lines``; ``current`` is the row still open.
struct ScreenModel {
    private(set) var lines: [String] = []
    private(set) var current = ""

    init(_ output: String = "") { feed(output) }

    mutating func feed(_ output: String) {
        var rest = Substring(output.replacingCRLF())
        let clear = "\r\u{1B}[2K"
        while !rest.isEmpty {
            if rest.hasPrefix(clear) {
                current = ""
                rest = rest.dropFirst(clear.count)
            } else if rest.first == "\n" {
                lines.append(current)
                current = ""
                rest = rest.dropFirst()
            } else {
                current.append(rest.removeFirst())
            }
        }
    }

    /// The row without SGR and OSC 8 sequences.
    static func strippingStyles(_ row: String) -> String {
        var out = ""
        var rest = Substring(row)
        while let character = rest.first {
            if character == "\u{1B}", rest.dropFirst().first == "[" {
                rest = rest.dropFirst(2)
                while let next = rest.first, !next.isLetter { rest = rest.dropFirst() }
                rest = rest.dropFirst()
            } else if character == "\u{1B}", rest.dropFirst().first == "]" {
                guard let end = rest.range(of: "\u{1B}\\") else { return out }
                rest = rest[end.upperBound...]
            } else {
                out.append(character)
                rest = rest.dropFirst()
            }
        }
        return out
    }
}

extension String {
    /// A pseudo-terminal turns each line feed into CR LF.
    fileprivate func replacingCRLF() -> String {
        var out = ""
        var previousCR = false
        for scalar in unicodeScalars {
            if previousCR, scalar != "\n" { out.unicodeScalars.append("\r") }
            previousCR = scalar == "\r"
            if !previousCR { out.unicodeScalars.append(scalar) }
        }
        if previousCR { out.unicodeScalars.append("\r") }
        return out
    }
}
