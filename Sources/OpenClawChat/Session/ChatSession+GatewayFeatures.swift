import OpenClawGateway
import OpenClawProtocol

/// What a late protocol 4 gateway offers beyond chat, set up once per socket: live usage through
/// `sessions.changed`, and the gateway's own slash commands. A gateway that does not list a method
/// in `hello-ok.features.methods` is not asked (it would answer "unknown method"), and what it would
/// have given stays empty.
extension ChatSession {
    /// The current session's usage; nil until the gateway reports some.
    public var usage: SessionUsage? {
        sessionUsage[transcript.sessionKeys.canonical(currentSessionKey)]
    }

    /// Subscribes to session changes and loads the command list, each when the gateway has it.
    func loadGatewayFeatures(_ session: GatewaySession) async {
        defer {
            gatewayCommandsSettled = true
            changed(.commands)
        }
        let methods = Set(session.hello.features.methods)
        let mayRead = session.scopes.contains(OperatorScope.read) || session.scopes.contains(OperatorScope.admin)
        guard mayRead else { return }
        if methods.contains(GatewayMethodName.sessionsSubscribe) {
            try? await client.subscribeToSessionChanges()
        }
        if methods.contains(GatewayMethodName.commandsList) {
            if let result = try? await client.commands() { gatewayCommands = result.commands }
        } else {
            gatewayCommands = []
        }
    }

    /// Merges one `sessions.changed` payload into ``sessionUsage``; malformed payloads change nothing.
    func applySessionsChanged(_ payload: JSONValue?) {
        guard let change = SessionUsageChange(json: payload) else { return }
        let key = transcript.sessionKeys.canonical(change.sessionKey)
        let merged = (sessionUsage[key] ?? SessionUsage()).merging(change)
        if merged != sessionUsage[key] { sessionUsage[key] = merged }
    }

    /// The gateway commands whose name starts with `prefix` (without the slash), for Tab completion.
    public func gatewayCommands(startingWith prefix: String) -> [GatewaySlashCommand] {
        let word = prefix.hasPrefix("/") ? String(prefix.dropFirst()) : prefix
        return gatewayCommands.filter { $0.name.hasPrefix(word) }
    }
}
