/// The characters that change what a reader sees without being seen themselves, other than C0
/// controls: what ``TerminalText`` shows as `<U+XXXX>` and ``JSONSerializer`` writes as `\uXXXX`.
///
/// - C1 controls (U+0080–U+009F): an 8-bit terminal reads U+009B as CSI, U+009D as OSC.
/// - Bidirectional controls: the embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
///   the marks (U+200E, U+200F, U+061C); they reorder what is shown (`exe.txt` can read `txt.exe`).
/// - Invisible characters: zero-width space, non-joiner and joiner (U+200B–U+200D), word joiner and
///   invisible operators (U+2060–U+2064, with the deprecated format controls U+206A–U+206F), the byte
///   order mark (U+FEFF), the soft hyphen (U+00AD), the Mongolian vowel separator (U+180E), the line and
///   paragraph separators (U+2028, U+2029), interlinear annotations (U+FFF9–U+FFFB) and the tag
///   characters (U+E0000–U+E007F, which can spell a whole hidden message after a visible one).
///
/// Variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF) are not here: they only choose a glyph's
/// form (text or emoji), and emoji need them.
package enum HiddenCharacters {
    package static func contains(_ value: UInt32) -> Bool {
        switch value {
        case 0x80...0x9F, 0xAD, 0x061C, 0x180E: true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x206F: true
        case 0xFEFF, 0xFFF9...0xFFFB, 0xE0000...0xE007F: true
        default: false
        }
    }

    /// Whether a zero-width joiner between `previous` and `next` joins two emoji (👩‍💻, 🏳️‍🌈): it is
    /// then part of what the reader sees, one combined picture, and is kept on a terminal. Anywhere
    /// else it hides between letters and is shown. The preceding emoji may end in a variation selector
    /// or a skin-tone modifier.
    static func joinsEmoji(_ previous: Unicode.Scalar?, _ next: Unicode.Scalar?) -> Bool {
        guard let previous, let next else { return false }
        return isEmoji(next) && (isEmoji(previous) || previous.value == 0xFE0F)
    }

    /// The UTF-8 lead bytes of every character in ``contains(_:)``: any other byte starts no such
    /// character, so a byte loop decodes a scalar only after one of these.
    static func mayStart(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xC2, 0xD8, 0xE1, 0xE2, 0xEF, 0xF3: true
        default: false
        }
    }

    /// The scalar whose UTF-8 encoding starts at `index` of valid UTF-8 `bytes`, and its length.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int) {
        let lead = UInt32(bytes[index])
        let length =
            switch lead {
            case 0xF0...: 4
            case 0xE0...: 3
            case 0xC0...: 2
            default: 1
            }
        guard length > 1, index + length <= bytes.count else { return (lead, 1) }
        var value = lead & (0xFF >> UInt32(length + 1))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (value, length)
    }

    /// Emoji proper: ASCII digits, `#` and `*` also have the emoji property (as keycap bases) but a
    /// joiner after them hides between ordinary characters.
    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && scalar.properties.isEmoji
    }
}
