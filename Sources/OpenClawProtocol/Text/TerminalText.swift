/// Text that came from a gateway, an agent or the network, made safe to print on a terminal.
///
/// A terminal obeys what it is sent: an escape sequence in a reply could move the cursor, rewrite what is
/// on screen, retitle the window, set the clipboard or fake a prompt; a bidirectional override or an
/// invisible character makes the text read differently from what it is. Nothing the gateway or the agent
/// wrote reaches the terminal raw: every place that prints such text (replies, history, sessions, search
/// hits, status lines, logs, errors that quote the gateway) passes it through here, and our own styling
/// is added afterwards. What is escaped stays visible, so a reader sees that something odd was sent:
///
/// - C0 controls and DEL in caret notation, as `cat -v` shows them: ESC is `^[`, BEL `^G`, a lone
///   carriage return `^M` (a CR before a line feed is dropped: CRLF text prints as lines);
/// - C1 controls, bidirectional controls and invisible characters (`HiddenCharacters`) by their code
///   point: `<U+009B>`, `<U+202E>`, `<U+200B>`.
///
/// One exception keeps emoji readable: a zero-width joiner between two emoji (👩‍💻) is what makes them
/// one picture, and is kept; anywhere else it is shown as `<U+200D>`.
///
/// Every character is judged on its own or with its two neighbours (the joiner), without parsing
/// sequences, so text streamed in arbitrary chunks is escaped the same as the whole, except at a cut:
/// a CRLF split across two chunks shows its CR as `^M`, an emoji joiner at a chunk's edge as `<U+200D>`.
/// Text with nothing to escape is returned as it is, without a copy.
public enum TerminalText {
    /// For text with lines (replies, messages, error messages): line feeds and tabs are kept.
    public static func escaped(_ text: String) -> String {
        escape(text, keepsLines: true)
    }

    /// For text shown on one line (a session title, a tool summary, a status line, a log line): line
    /// breaks and tabs become spaces, everything else is escaped as by ``escaped(_:)``.
    public static func escapedLine(_ text: String) -> String {
        escape(text, keepsLines: false)
    }

    /// Whether ``escaped(_:)`` would change `text`.
    public static func needsEscaping(_ text: String) -> Bool {
        firstSpecial(in: text.unicodeScalars, keepsLines: true) != nil
    }

    private static func escape(_ text: String, keepsLines: Bool) -> String {
        if hasNothingToEscape(text, keepsLines: keepsLines) { return text }
        let scalars = text.unicodeScalars
        guard let first = firstSpecial(in: scalars, keepsLines: keepsLines) else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<first])
        var index = first
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let special = isSpecial(at: index, in: scalars, keepsLines: keepsLines)
            index = scalars.index(after: index)
            guard special else {
                result.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x0A, 0x09:
                result.append(" ")
            case 0x0D where index < scalars.endIndex && scalars[index] == "\n":
                continue  // CRLF: the line feed that follows does the work
            case 0x00..<0x20:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F:
                result.append(contentsOf: "^?".unicodeScalars)
            default:
                result.append(contentsOf: codePoint(scalar).unicodeScalars)
            }
        }
        return String(result)
    }

    /// The common case in one pass over the UTF-8 bytes, without decoding scalars: no control byte and
    /// no byte that starts a hidden character (``HiddenCharacters/mayStart(_:)``, then decoded). Every
    /// other byte, ASCII or not, is shown as it is. False also when the text has no contiguous UTF-8 or
    /// has an emoji joiner (then the scalar path decides).
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
                case _ where HiddenCharacters.mayStart(byte):
                    let (value, length) = HiddenCharacters.decode(bytes, at: index)
                    if HiddenCharacters.contains(value) { return false }
                    index += length
                    continue
                default:
                    break
                }
                index += 1
            }
            return true
        } ?? false
    }

    private static func firstSpecial(
        in scalars: String.UnicodeScalarView, keepsLines: Bool
    ) -> String.UnicodeScalarView.Index? {
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if isSpecial(at: index, in: scalars, keepsLines: keepsLines) { return index }
            index = scalars.index(after: index)
        }
        return nil
    }

    private static func isSpecial(
        at index: String.UnicodeScalarView.Index, in scalars: String.UnicodeScalarView, keepsLines: Bool
    ) -> Bool {
        let scalar = scalars[index]
        switch scalar.value {
        case 0x0A, 0x09: return !keepsLines
        case 0x00..<0x20, 0x7F: return true
        case 0x200D:
            let previous = index > scalars.startIndex ? scalars[scalars.index(before: index)] : nil
            let after = scalars.index(after: index)
            let next = after < scalars.endIndex ? scalars[after] : nil
            return !HiddenCharacters.joinsEmoji(previous, next)
        default: return HiddenCharacters.contains(scalar.value)
        }
    }

    /// `<U+009B>`, `<U+E0041>`.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }
}
