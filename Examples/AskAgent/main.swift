// Asks the agent one question and prints the reply as it streams.
//   swift run ask-agent --url ws://127.0.0.1:18789 --token TOKEN "What is on my calendar today?"
import Foundation
import Logging
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// Writes at once, also into a pipe (`print` keeps a pipe's output until the buffer fills).
func say(_ text: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((text + terminator).utf8))
}
var quietLogger = Logger(label: "ask-agent")
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
let url = option("--url") ?? "ws://127.0.0.1:18789"
let token = option("--token") ?? ProcessInfo.processInfo.environment["OPENCLAW_GATEWAY_TOKEN"]
let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
guard !wantsHelp, let question = arguments.dropFirst().last, ![url, token].contains(question), let token else {
    say("usage: OPENCLAW_GATEWAY_TOKEN=… ask-agent [--url URL] QUESTION   (or --token TOKEN, which ps can show)")
    exit(wantsHelp ? 0 : 2)
}

do {
    // A device identity kept in a file: the gateway pairs a device once, not on every run.
    let folder = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".openclaw-examples")
    let configuration = GatewayConnectionConfiguration(
        url: try GatewayURL(parsing: url), credential: .token(token),
        client: ClientInfo(id: .cli, mode: .cli, version: "1.0", platform: platform), reconnect: nil)
    let connection = GatewayConnection(
        configuration: configuration,
        identityStore: FileDeviceIdentityStore(path: folder.appendingPathComponent("identity.json").path),
        tokenStore: FileDeviceTokenStore(path: folder.appendingPathComponent("device-tokens.json").path),
        logger: quietLogger)
    let session = try await connection.connect()
    let client = ChatClient(connection: connection)
    let events = client.events()  // Subscribe before sending: no event of the run is missed.

    // The transcript folds protocol 3's cumulative and protocol 4's incremental deltas into one text.
    var transcript = Transcript(
        sessionKey: session.mainSessionKey,
        sessionKeys: SessionKeyMatcher(defaults: session.hello.snapshot.sessionDefaults))
    let runId = UUID().uuidString
    transcript.apply(.send(LocalSend(id: runId, text: question, timestampMs: Int(UnixTime.nowMs()))))
    let sent = try await client.send(sessionKey: session.mainSessionKey, message: question, idempotencyKey: runId)
    guard case .run(let ack) = sent else { exit(0) }  // A stop command ("/stop"): no run, no reply.
    transcript.apply(.sendAcknowledged(ack))
    var printed = 0
    for await event in events {
        switch event {
        case .chat(let chat): transcript.apply(.chatEvent(chat))
        case .disconnected(let reason): throw AskError.lost("\(reason)")
        default: continue
        }
        if let reply = transcript.entries.last(where: { $0.runId == runId && $0.role == .assistant }) {
            say(reply.text(fromUTF8Offset: printed), terminator: "")
            printed = reply.textUTF8Count
        }
        switch transcript.outcome(ofRun: runId) {
        case nil: continue
        case .completed: say("")
        case .stopped(let reason): say("\n[stopped: \(reason ?? "no reason given")]")
        case .failed(let message, _): say("\n[failed: \(message)]")
        }
        break
    }
    await connection.disconnect()
} catch let error as GatewayError {
    say("error: \(error.message)")  // One sentence that says what happened: fine to show a user.
    exit(1)
} catch {
    say("error: \(error)")
    exit(1)
}

enum AskError: Error { case lost(String) }
