#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Cells of text that carries the program's own escape sequences (SGR styles, OSC 8 links, `CR ESC[2K`):
/// the sequences take no cell. Used to keep a live row within one terminal row, whatever its styles.
enum StyledCells {
    /// `text` cut to at most `limit` cells; its escape sequences kept, a style reset added when cut.
    static func clip(_ text: String, to limit: Int) -> String {
        var out = ""
        var used = 0
        var rest = Substring(text)
        while let character = rest.first {
            if let sequence = escapeSequence(at: rest) {
                out += sequence
                rest = rest.dropFirst(sequence.count)
                continue
            }
            let width = DisplayWidth.of(character)
            if used + width > limit { return out + "\u{1B}[0m" }
            out.append(character)
            used += width
            rest = rest.dropFirst()
        }
        return out
    }

    /// `text` without its escape sequences: what takes cells.
    static func plain(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let character = rest.first {
            if let sequence = escapeSequence(at: rest) {
                rest = rest.dropFirst(sequence.count)
                continue
            }
            out.append(character)
            rest = rest.dropFirst()
        }
        return out
    }

    /// The escape sequence `text` starts with, if any: CSI up to its final byte, OSC up to ST or BEL.
    private static func escapeSequence(at text: Substring) -> Substring? {
        guard text.first == "\u{1B}" else {
            return text.first == "\r" ? text.prefix(1) : nil
        }
        let after = text.dropFirst()
        switch after.first {
        case "[":
            guard let end = after.dropFirst().firstIndex(where: { $0.isASCII && ("@"..."~").contains($0) })
            else { return text }
            return text[...end]
        case "]":
            if let st = after.firstRange(of: "\u{1B}\\") { return text[..<st.upperBound] }
            if let bel = after.firstIndex(of: "\u{07}") { return text[...bel] }
            return text
        default:
            return text.prefix(2)
        }
    }
}
