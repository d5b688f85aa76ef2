import ArgumentParser
import OpenClawProtocol

/// Checks of option values several commands share, so a typo is a usage error (exit 2) before anything
/// connects, not a message sent with a setting the gateway then ignores or refuses.
enum OptionValues {
    /// A session key: anything but empty or blank (the gateway would pick a session of its own).
    static func checkSession(_ key: String) throws {
        guard key.contains(where: { !$0.isWhitespace }) else {
            throw ValidationError("--session needs a session key (for example --session main)")
        }
    }

    /// A thinking level, canonical or one of upstream's aliases.
    static func checkThinking(_ level: String?) throws {
        guard let level, ThinkingLevel(parsing: level) == nil else { return }
        throw ValidationError(
            "--thinking \(TerminalText.escapedLine(level)) is not a thinking level; use one of \(ThinkingLevel.listed)")
    }

    /// The level named by the option (aliases resolved); nil stays nil.
    static func thinkingLevel(_ level: String?) -> ThinkingLevel? {
        level.flatMap { ThinkingLevel(parsing: $0) }
    }

    static let thinkingHelp = ArgumentHelp(
        "Thinking level: \(ThinkingLevel.listed) (the model decides which it offers).")
}
