/// Text that came from a gateway or an agent, made safe to print on a terminal.
///
/// A terminal obeys what it is sent: an escape sequence in a reply could move the cursor, rewrite what is
/// on screen, retitle the window, set the clipboard or fake a prompt. Nothing the gateway or the agent
/// wrote reaches the terminal raw: every place that prints such text (replies, history, sessions, search
/// hits, status lines, errors that quote the gateway) passes it through here, and our own styling is
/// added afterwards. What is escaped stays visible, so a reader sees that something odd was sent:
///
/// - C0 controls and DEL in caret notation, as `cat -v` shows them: ESC is `^[`, BEL `^G`, a lone
///   carriage return `^M` (a CR before a line feed is dropped: CRLF text prints as lines);
/// - C1 controls (U+0080–U+009F; 8-bit terminals read U+009B as CSI) and the bidirectional embedding,
///   override and isolate characters (U+202A–U+202E, U+2066–U+2069, which reorder what is shown) as
///   `<U+009B>`.
///
/// Every character is judged on its own, without parsing sequences, so text streamed in arbitrary chunks
/// is escaped the same as the whole (only a CRLF split across two chunks shows its CR as `^M`). Text with
/// nothing to escape is returned as it is, without a copy.
enum TerminalText {
    /// For text with lines (replies, messages, error messages): line feeds and tabs are kept.
    static func escaped(_ text: String) -> String {
        escape(text, keepsLines: true)
    }

    /// For text shown on one line (a session title, a tool summary, a status line): line breaks and tabs
    /// become spaces, everything else is escaped as by ``escaped(_:)``.
    static func escapedLine(_ text: String) -> String {
        escape(text, keepsLines: false)
    }

    /// Whether ``escaped(_:)`` would change `text`.
    static func needsEscaping(_ text: String) -> Bool {
        text.unicodeScalars.contains { isSpecial($0, keepsLines: true) }
    }

    private static func escape(_ text: String, keepsLines: Bool) -> String {
        if hasNothingToEscape(text, keepsLines: keepsLines) { return text }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { isSpecial($0, keepsLines: keepsLines) }) else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<first])
        var index = first
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            switch scalar.value {
            case 0x0A, 0x09:
                result.append(keepsLines ? scalar : " ")
            case 0x0D where index < scalars.endIndex && scalars[index] == "\n":
                continue  // CRLF: the line feed that follows does the work
            case 0x00..<0x20:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F:
                result.append(contentsOf: "^?".unicodeScalars)
            case _ where isHidden(scalar):
                result.append(contentsOf: unicodeName(scalar).unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The common case in one pass over the UTF-8 bytes, without decoding scalars: no control byte, no
    /// C1 control (`C2 80`–`C2 9F`), no bidirectional formatting character (`E2 80 AA`–`AE`,
    /// `E2 81 A6`–`A9`). Every other byte, ASCII or not, is shown as it is. False also when the text has
    /// no contiguous UTF-8 (then the scalar path decides).
    private static func hasNothingToEscape(_ text: String, keepsLines: Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A, 0x09:
                    guard keepsLines else { return false }
                case 0x00..<0x20, 0x7F:
                    return false
                case 0xC2:
                    if index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return false }
                case 0xE2:
                    if index + 2 < bytes.count {
                        let second = bytes[index + 1]
                        let third = bytes[index + 2]
                        if second == 0x80, (0xAA...0xAE).contains(third) { return false }
                        if second == 0x81, (0xA6...0xA9).contains(third) { return false }
                    }
                default:
                    break
                }
                index += 1
            }
            return true
        } ?? false
    }

    private static func isSpecial(_ scalar: Unicode.Scalar, keepsLines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepsLines
        case 0x00..<0x20, 0x7F: true
        default: isHidden(scalar)
        }
    }

    /// C1 controls and the bidirectional formatting characters that reorder the text around them.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `<U+009B>`.
    private static func unicodeName(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }
}
