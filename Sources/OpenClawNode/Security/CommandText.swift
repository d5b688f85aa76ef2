import OpenClawProtocol

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

    /// Characters a terminal would act on or hide rather than show: C0 controls, DEL, and what the
    /// terminal escaper hides (``HiddenCharacters``: C1, bidi, zero-width, tags). Unlike on screen, a
    /// zero-width joiner inside an emoji is escaped too: an approver compares bytes, not pictures.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || HiddenCharacters.contains(scalar.value)
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
