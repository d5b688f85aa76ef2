#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A command as an approver must see it: exactly the characters the gateway sent, never interpreted,
/// with every character that could hide or disguise something made visible.
///
/// Control characters (line breaks, tabs, escape sequences that would move a terminal's cursor or
/// recolour it), bidirectional overrides (which reorder what is displayed: `rm -rf /⟨RLO⟩txt.exe`),
/// invisible characters (zero-width, format characters, spaces other than U+0020, fillers) are
/// replaced by a visible token such as `⟨ESC⟩` or `⟨U+200B⟩`. The brackets themselves are escaped
/// when the command contains them, so the escaped text reads back unambiguously. Letters and symbols
/// that look like ASCII but are not (Cyrillic `а`, fullwidth `ｒ`, an en dash where a flag's `-`
/// belongs) are kept, since they are what will run, and listed in ``lookalikes``.
///
/// Both the terminal and the app show commands through this type, so they agree on what is shown.
public struct CommandDisplay: Sendable, Hashable {
    /// What the command contains that a plain rendering would hide or disguise.
    public enum Finding: String, Sendable, Hashable, CaseIterable {
        case controlCharacters
        case bidirectionalControls
        case invisibleCharacters
        case lookalikeCharacters
    }

    /// A character that looks like an ASCII one.
    public struct Lookalike: Sendable, Hashable {
        public var character: String
        /// `U+0430`.
        public var codePoint: String
        /// The ASCII text it can be taken for.
        public var looksLike: String
        /// Its position in the command, in characters from 0.
        public var offset: Int
    }

    public let original: String
    /// Every character, escaped as described above.
    public let escaped: String
    public let findings: Set<Finding>
    public let lookalikes: [Lookalike]
    /// The escaped text in pieces that are never split (a token such as `⟨ESC⟩` is one piece).
    private let pieces: [String]

    public init(_ command: String) {
        var pieces: [String] = []
        var findings: Set<Finding> = []
        var lookalikes: [Lookalike] = []
        var offset = 0
        for character in command {
            defer { offset += 1 }
            let scalars = character.unicodeScalars
            if scalars.count == 1, let scalar = scalars.first, scalar.isASCII, (0x20...0x7E).contains(scalar.value) {
                pieces.append(String(character))
                continue
            }
            // Inspect each scalar: a grapheme can carry an invisible one (a letter plus U+200D).
            var visible = ""
            for scalar in scalars {
                if let (token, finding) = Self.escape(scalar) {
                    if !visible.isEmpty {
                        pieces.append(visible)
                        visible = ""
                    }
                    pieces.append(token)
                    findings.insert(finding)
                } else {
                    if let ascii = Self.lookalike(scalar) {
                        lookalikes.append(
                            Lookalike(
                                character: String(scalar), codePoint: Self.codePoint(scalar), looksLike: ascii,
                                offset: offset))
                        findings.insert(.lookalikeCharacters)
                    }
                    visible.unicodeScalars.append(scalar)
                }
            }
            if !visible.isEmpty { pieces.append(visible) }
        }
        self.original = command
        self.pieces = pieces
        self.escaped = pieces.joined()
        self.findings = findings
        self.lookalikes = lookalikes
    }

    /// The escaped text cut to about `limit` characters (never inside a token), and how many escaped
    /// characters were left out (0 when it is complete).
    public func summary(limit: Int) -> (text: String, omitted: Int) {
        var text = ""
        var count = 0
        for (index, piece) in pieces.enumerated() {
            let length = piece.count
            if count + length > limit, count > 0 {
                let omitted = pieces[index...].reduce(0) { $0 + $1.count }
                return (text, omitted)
            }
            text += piece
            count += length
        }
        return (text, 0)
    }

    /// One sentence per kind of finding, in a fixed order, for a warning under the command.
    public var warnings: [String] {
        var lines: [String] = []
        if findings.contains(.controlCharacters) {
            lines.append("contains control characters (line breaks, tabs or terminal escapes), shown as ⟨…⟩")
        }
        if findings.contains(.bidirectionalControls) {
            lines.append("contains bidirectional text controls that can reorder what is displayed, shown as ⟨…⟩")
        }
        if findings.contains(.invisibleCharacters) {
            lines.append("contains invisible characters, shown as ⟨…⟩")
        }
        if !lookalikes.isEmpty {
            let listed = lookalikes.prefix(8).map {
                "\"\($0.character)\" (\($0.codePoint), looks like \"\($0.looksLike)\")"
            }
            let more = lookalikes.count > 8 ? " and \(lookalikes.count - 8) more" : ""
            lines.append("contains look-alike characters: " + listed.joined(separator: ", ") + more)
        }
        return lines
    }

    /// Whether anything in the command needed escaping or flagging.
    public var isSuspicious: Bool { !findings.isEmpty }

    // MARK: - Classification

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The token for a scalar that must not be shown as itself, and why; nil for one that may.
    static func escape(_ scalar: Unicode.Scalar) -> (String, Finding)? {
        let value = scalar.value
        if let name = controlNames[value] { return ("⟨\(name)⟩", .controlCharacters) }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return ("⟨\(codePoint(scalar))⟩", .controlCharacters) }
        if let name = bidiNames[value] { return ("⟨\(name)⟩", .bidirectionalControls) }
        // The escape brackets themselves, so that escaped text cannot be forged.
        if value == 0x27E8 || value == 0x27E9 { return ("⟨\(codePoint(scalar))⟩", .invisibleCharacters) }
        if let name = invisibleNames[value] { return ("⟨\(name)⟩", .invisibleCharacters) }
        if isInvisible(scalar) { return ("⟨\(codePoint(scalar))⟩", .invisibleCharacters) }
        return nil
    }

    private static let controlNames: [UInt32: String] = [
        0x00: "NUL", 0x09: "TAB", 0x0A: "LF", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL", 0x85: "NEL",
        0x2028: "LS", 0x2029: "PS",
    ]

    private static let bidiNames: [UInt32: String] = [
        0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO", 0x2066: "LRI", 0x2067: "RLI",
        0x2068: "FSI", 0x2069: "PDI", 0x200E: "LRM", 0x200F: "RLM", 0x061C: "ALM",
    ]

    private static let invisibleNames: [UInt32: String] = [
        0x200B: "ZWSP", 0x200C: "ZWNJ", 0x200D: "ZWJ", 0x2060: "WJ", 0xFEFF: "BOM", 0x00AD: "SHY", 0x00A0: "NBSP",
    ]

    /// Format characters, spaces other than U+0020, fillers that render as nothing, variation
    /// selectors, and code points with no glyph at all (unassigned, private use, surrogates).
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate,
            .control:
            return true
        default: break
        }
        return (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value)
            || [0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x180E].contains(value)
    }

    /// The ASCII text a non-ASCII letter, digit or punctuation mark can pass for; nil when it cannot.
    static func lookalike(_ scalar: Unicode.Scalar) -> String? {
        guard !scalar.isASCII else { return nil }
        if let known = confusables[scalar.value] { return known }
        // Compatibility forms that fold to ASCII: fullwidth letters, mathematical alphanumerics,
        // superscripts, ligatures such as "ﬁ".
        return CompatibilityFolding.asciiFolding(of: scalar)
    }

    /// Letters and marks from other scripts that render like ASCII (after Unicode's confusables list).
    private static let confusables: [UInt32: String] = [
        // Cyrillic
        0x0430: "a", 0x0435: "e", 0x043E: "o", 0x0440: "p", 0x0441: "c", 0x0443: "y", 0x0445: "x", 0x0455: "s",
        0x0456: "i", 0x0458: "j", 0x0501: "d", 0x04BB: "h", 0x04CF: "l", 0x051B: "q", 0x051D: "w", 0x0410: "A",
        0x0412: "B", 0x0415: "E", 0x041A: "K", 0x041C: "M", 0x041D: "H", 0x041E: "O", 0x0420: "P", 0x0421: "C",
        0x0422: "T", 0x0423: "Y", 0x0425: "X", 0x0405: "S", 0x0406: "I", 0x0408: "J", 0x04AE: "Y",
        // Greek
        0x0391: "A", 0x0392: "B", 0x0395: "E", 0x0396: "Z", 0x0397: "H", 0x0399: "I", 0x039A: "K", 0x039C: "M",
        0x039D: "N", 0x039F: "O", 0x03A1: "P", 0x03A4: "T", 0x03A5: "Y", 0x03A7: "X", 0x03B1: "a", 0x03B9: "i",
        0x03BD: "v", 0x03BF: "o", 0x03C1: "p", 0x03C5: "u",
        // Armenian
        0x0570: "h", 0x0578: "n", 0x057D: "u", 0x0585: "o",
        // Latin letters outside ASCII
        0x0131: "i", 0x0237: "j", 0x0251: "a", 0x0261: "g",
        // Dashes, quotes and slashes where a flag's "-", a quote or a path separator belongs
        0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2014: "-", 0x2015: "-", 0x2212: "-", 0x2043: "-",
        0x2018: "'", 0x2019: "'", 0x201A: ",", 0x201B: "'", 0x02BC: "'", 0x2032: "'", 0x201C: "\"", 0x201D: "\"",
        0x201E: "\"", 0x2033: "\"", 0x2215: "/", 0x2044: "/", 0x29F8: "/", 0x2216: "\\", 0x29F5: "\\",
        0x037E: ";", 0x0589: ":", 0x2236: ":", 0x01C3: "!", 0x2223: "|", 0x01C0: "|",
    ]
}
