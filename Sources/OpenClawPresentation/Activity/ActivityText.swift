import OpenClawChat
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The words and durations of what the agent is doing, one vocabulary for the terminal and the app:
/// `thinking…`, `running exec: curl …`, `0.4 s`, `2 min 5 s`. Pure: each caller adds its own styling
/// (the terminal's parentheses and colours, the app's secondary text).
public enum ActivityText {
    /// A duration as a chat shows it: tenths of a second under a minute (`0.4 s`, `12.3 s`), then minutes
    /// and seconds (`2 min 5 s`). A negative span (clocks that disagree) shows as `0.0 s`.
    public static func duration(milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        if ms < 60_000 { return EssentialsText.fixed(Double(ms) / 1000, digits: 1) + " s" }
        let seconds = ms / 1000
        return "\(seconds / 60) min \(seconds % 60) s"
    }

    /// What a running step is doing: `thinking…` or `running exec: curl -s …` (its summary cut at
    /// `limit` characters).
    public static func running(_ step: ActivityStep, limit: Int = 60) -> String {
        switch step.kind {
        case .thinking: "thinking…"
        case .tool: "running \(step.summary(limit: limit))"
        }
    }

    /// What a reply is doing before any step or text: the gateway's progress phase (`tool_call` reads
    /// `tool call…`), else `thinking…`.
    public static func waiting(phase: String?) -> String {
        phase.map { "\($0.replacing("_", with: " "))…" } ?? "thinking…"
    }
}
