/// The one-line text of an argv that an approver reads, the log prints and `exec.*` events carry.
///
/// It must be unambiguous, because the approver approves this text and the node runs the argv: two
/// different argvs never render the same (`["a b"]` is `'a b'`, `["a", "b"]` is `a b`), and nothing
/// that would move the cursor, hide text or reorder it on a screen survives raw. Arguments made only
/// of plainly safe characters stand bare; others are single-quoted as a POSIX shell reads them;
/// an argument with a control, bidi or invisible character uses the `$'…'` form with escapes, which
/// bash and zsh read back as the same bytes.
public enum CommandText {
    public static func render(_ argv: [String]) -> String {
        argv.map(quote).joined(separator: " ")
    }

    static func quote(_ argument: String) -> String {
        if argument.isEmpty { return "''" }
        if argument.unicodeScalars.allSatisfy(isBare) { return argument }
        if !argument.unicodeScalars.contains(where: needsEscape) {
            return "'" + argument.replacing("'", with: #"'\''"#) + "'"
        }
        var text = "$'"
        for scalar in argument.unicodeScalars {
            switch scalar {
            case "\\": text += #"\\"#
            case "'": text += #"\'"#
            case "\n": text += #"\n"#
            case "\t": text += #"\t"#
            case "\r": text += #"\r"#
            case _ where scalar.value < 0x80 && needsEscape(scalar):
                text += #"\x"# + hex(scalar.value, width: 2)
            case _ where needsEscape(scalar):
                text +=
                    scalar.value > 0xFFFF ? #"\U"# + hex(scalar.value, width: 8) : #"\u"# + hex(scalar.value, width: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "'"
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        case "_", "-", ".", "/", ":", ",", "+", "=", "@", "%": return true
        default: return false
        }
    }

    /// Characters a terminal would act on or hide rather than show: C0 and C1 controls, DEL, bidi
    /// controls, zero-width and other invisible format characters, line and paragraph separators.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0xAD, 0x061C, 0x180E: return true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF: return true
        case 0xFFF9...0xFFFB, 0xE0000...0xE007F: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
