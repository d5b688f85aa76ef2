/// Cell widths as the test terminal counts them, on its own (not with the program's `DisplayWidth`).
extension ScreenEmulator {
    /// Cells a character takes, as terminals following Unicode's East Asian Width and emoji
    /// presentation count them.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            // Zero-width joiner, variation selectors, marks on their own: nothing of their own.
            return 0
        default:
            break
        }
        if first.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") { return 2 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // regional indicators: a flag
        let wideRanges: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x2FFF, 0x3000...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F000...0x1FAFF,
            0x20000...0x3FFFD,
        ]
        if wideRanges.contains(where: { $0.contains(first.value) }) {
            // In the emoji blocks, only what is shown as emoji by default is wide (☺︎-style text symbols
            // are not): the emoji-presentation test above took those.
            return first.value >= 0x1F000 && first.value < 0x20000 ? 1 : 2
        }
        return 1
    }
}
