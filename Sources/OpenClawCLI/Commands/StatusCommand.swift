import ArgumentParser
import OpenClawGateway
import OpenClawProtocol

/// `openclaw-chat status`: connect once and show what was agreed.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Connect and show the negotiated protocol, server version, granted scopes and device id."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print one JSON object.") var json = false

    func run() async throws {
        let terminal = Terminal()
        do {
            let (connection, session, url) = try await global.connectRetryingOnceOnDrop(terminal: terminal)
            await connection.disconnect()
            let hello = session.hello
            if json {
                let object: JSONValue = .object(dropping: [
                    ("url", .string(url.description)), ("connected", true),
                    ("protocol", .int(session.protocolVersion.rawValue)),
                    ("serverVersion", .string(hello.server.version)),
                    ("scopes", .strings(session.scopes)), ("tokenScopes", .strings(hello.auth?.scopes)),
                    ("deviceId", .string(session.deviceId)), ("mainSessionKey", .string(session.mainSessionKey)),
                    ("tickIntervalMs", .int(hello.policy.tickIntervalMs)),
                    ("maxPayload", .int(hello.policy.maxPayload)),
                    ("notAdvertised", hello.notAdvertised.isEmpty ? nil : .strings(hello.notAdvertised.names)),
                ])
                terminal.line(JSONSerializer.string(object))
                return
            }
            terminal.line("\(terminal.styled("●", .green)) connected to \(TerminalText.escapedLine(url.description))")
            terminal.line("  protocol        \(session.protocolVersion.rawValue)")
            terminal.line("  server version  \(TerminalText.escapedLine(hello.server.version))")
            terminal.line("  scopes          \(TerminalText.escapedLine(session.scopes.joined(separator: ", ")))")
            if let tokenScopes = hello.auth?.scopes, tokenScopes != session.scopes {
                terminal.line("  device token    \(TerminalText.escapedLine(tokenScopes.joined(separator: ", ")))")
            }
            terminal.line("  device id       \(session.deviceId)")
            let mainKey = TerminalText.escapedLine(session.mainSessionKey)
            terminal.line("  main session    \(SessionName.main) (the gateway's \(mainKey))")
            if !hello.notAdvertised.isEmpty {
                let names = hello.notAdvertised.names.joined(separator: ", ")
                terminal.line("  unknown         \(names) (not sent by the gateway; defaults used)")
            }
        } catch {
            throw report(error, terminal: terminal)
        }
    }
}
