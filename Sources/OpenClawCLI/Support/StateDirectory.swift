#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the terminal client keeps its files: identity, credentials, the transcript database.
///
/// `--state-dir`, else `OPENCLAW_STATE_DIR`, else the platform's data directory
/// (`$XDG_DATA_HOME/openclaw-chat` or `~/.local/share/openclaw-chat` on Linux,
/// `~/Library/Application Support/openclaw-chat` on macOS).
struct StateDirectory: Sendable {
    let path: String

    init(explicit: String?, environment: [String: String] = ProcessEnvironment.current) {
        if let explicit, !explicit.isEmpty {
            path = Self.expandTilde(explicit, environment: environment)
        } else if let fromEnvironment = environment["OPENCLAW_STATE_DIR"], !fromEnvironment.isEmpty {
            path = Self.expandTilde(fromEnvironment, environment: environment)
        } else {
            path = Self.platformDefault(environment: environment)
        }
    }

    var identityFile: String { path + "/identity/device.json" }
    var deviceTokensFile: String { path + "/credentials/device-tokens.json" }
    var loginFile: String { path + "/credentials/gateway.json" }
    var tlsPinsFile: String { path + "/credentials/tls-pins.json" }
    var databaseFile: String { path + "/transcripts.sqlite" }
    /// What was typed in the interactive chat, for ↑/↓ (0600).
    var inputHistoryFile: String { path + "/input-history.json" }

    static func platformDefault(environment: [String: String]) -> String {
        let home = environment["HOME"] ?? HomeDirectory.path
        #if os(macOS)
            return home + "/Library/Application Support/openclaw-chat"
        #else
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/openclaw-chat" }
            return home + "/.local/share/openclaw-chat"
        #endif
    }

    static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? HomeDirectory.path) + path.dropFirst()
    }
}
