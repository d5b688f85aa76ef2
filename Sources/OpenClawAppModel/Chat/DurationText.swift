import Foundation

/// Durations as a chat shows them: `0.4 s`, `12.3 s`, `2 min 5 s`.
enum DurationText {
    static func format(milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        if ms < 60_000 { return String(format: "%.1f s", Double(ms) / 1000) }
        let seconds = ms / 1000
        return "\(seconds / 60) min \(seconds % 60) s"
    }
}
