// Follows a session's live events and prints one line for each: replies, failures, connection changes.
// (Tool steps reach only the client that sent the message: this one sees them only for runs it started.)
// The connection heals itself (reconnect on by default); Ctrl-C ends the program.
//   swift run follow-session --url ws://127.0.0.1:18789 --token TOKEN [--session KEY]
import Foundation
import Logging
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// Writes at once, also into a pipe (`print` keeps a pipe's output until the buffer fills).
func say(_ text: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((text + terminator).utf8))
}
var quietLogger = Logger(label: "follow-session")
quietLogger.logLevel = .warning  // The connection logs each connect and reconnect at `info`.

#if os(macOS)
    let platform = "macos"  // Stable across OS updates: the gateway pins it when it approves the device.
#else
    let platform = "linux"
#endif
let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
guard !wantsHelp, let token = option("--token") ?? ProcessInfo.processInfo.environment["OPENCLAW_GATEWAY_TOKEN"]
else {
    say("usage: OPENCLAW_GATEWAY_TOKEN=… follow-session [--url URL] [--session KEY]   (or --token TOKEN)")
    exit(wantsHelp ? 0 : 2)
}

do {
    let folder = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".openclaw-examples")
    let configuration = GatewayConnectionConfiguration(
        url: try GatewayURL(parsing: option("--url") ?? "ws://127.0.0.1:18789"), credential: .token(token),
        client: ClientInfo(id: .cli, mode: .cli, version: "1.0", platform: platform))
    let connection = GatewayConnection(
        configuration: configuration,
        identityStore: FileDeviceIdentityStore(path: folder.appendingPathComponent("identity.json").path),
        tokenStore: FileDeviceTokenStore(path: folder.appendingPathComponent("device-tokens.json").path),
        logger: quietLogger)
    let events = ChatClient(connection: connection).events()
    let session = try await connection.connect()
    // Gateways name sessions in more than one form ("main", "agent:main:main"): the matcher knows them.
    let wanted = option("--session") ?? session.mainSessionKey
    let matcher = SessionKeyMatcher(defaults: session.hello.snapshot.sessionDefaults)

    for await event in events {
        switch event {
        case .connected(let session): say("connected (protocol \(session.protocolVersion)), following \(wanted)")
        case .disconnected(let reason): say("connection lost: \(reason); reconnecting")
        case .gap: say("some events were lost: reload history (ChatClient.history) to catch up")
        case .shutdown(let notice): say("the gateway is going away: \(notice.reason)")
        case .chat(let chat) where matcher.matches(chat.sessionKey, wanted):
            switch chat.state {
            case .final: say("[\(chat.runId)] reply: \(chat.message?.text ?? "(no text)")")
            case .aborted: say("[\(chat.runId)] stopped (\(chat.stopReason ?? "no reason given"))")
            case .error: say("[\(chat.runId)] failed: \(chat.errorMessage ?? "no detail")")
            default: continue  // Deltas: see ask-agent for streaming them through a Transcript.
            }
        case .agent(let agent) where agent.sessionKey.map { matcher.matches($0, wanted) } ?? true:
            switch agent.stream {
            case .tool(.start(let name, _, _)): say("[\(agent.runId)] tool \(name) started")
            case .tool(.result(let name, _, let isError, _)):
                say("[\(agent.runId)] tool \(name) \(isError ? "failed" : "done")")
            default: continue
            }
        default: continue
        }
    }
} catch let error as GatewayError {
    say("error: \(error.message)")
    exit(1)
} catch {
    say("error: \(error)")
    exit(1)
}
