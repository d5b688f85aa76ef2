import OpenClawProtocol

/// Decides whether two session keys name the same session.
///
/// Clients may say `main`; the gateway canonicalises it to `agent:<agentId>:<mainKey>` and stamps
/// that on the events of runs it started, while `chat.history` and abort events echo the alias. So
/// the alias and the canonical main key must compare equal — and nothing else may.
public struct SessionKeyMatcher: Sendable, Hashable {
    /// The canonical key of the main session, e.g. `agent:main:main`.
    public var mainSessionKey: String
    /// Keys that mean the main session: `main`, and the gateway's configured main key.
    public var mainAliases: Set<String>

    /// A matcher for a gateway whose main session is `mainSessionKey`, also called `mainKey` (and `main`).
    public init(mainSessionKey: String = "agent:main:main", mainKey: String = "main") {
        self.mainSessionKey = mainSessionKey
        self.mainAliases = ["main", mainKey]
    }

    /// The matcher for the gateway that sent this `hello-ok` snapshot.
    public init(defaults: HelloOk.SessionDefaults?) {
        self.init(
            mainSessionKey: defaults?.mainSessionKey ?? "agent:main:main",
            mainKey: defaults?.mainKey ?? "main"
        )
    }

    /// The canonical form of `key`: the main session key for an alias, else the key itself.
    public func canonical(_ key: String) -> String {
        // The aliases are usually the two of `init` ("main" and the configured key): comparing them
        // beats hashing `key`, which every streamed delta did twice (its session key and the transcript's).
        mainAliases.contains { $0 == key } ? mainSessionKey : key
    }

    /// Whether the two keys name the same session: equal, or both names of the main session.
    public func matches(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs || canonical(lhs) == canonical(rhs)
    }
}
