import OpenClawChat
import OpenClawProtocol

/// One name per session in everything the terminal prints.
///
/// People type `main`; the gateway answers with the canonical key (`agent:main:main`) in some places and
/// echoes the alias in others, and the local store keeps whatever was typed. Shown as is, one session
/// looked like two. The main session is shown as `main` (the name `--session` and `/session` take)
/// wherever it appears; every other key as it is. JSON output keeps the gateway's keys.
enum SessionName {
    static let main = "main"

    /// The name to show for `key`; `keys` knows this gateway's main session key.
    static func display(_ key: String, keys: SessionKeyMatcher = SessionKeyMatcher()) -> String {
        keys.canonical(key) == keys.mainSessionKey ? main : TerminalText.escapedLine(key)
    }
}
