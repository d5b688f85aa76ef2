import ArgumentParser
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `openclaw-chat send`: one message, the streamed reply on stdout, an exit code that says how it ended.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Send one message and print the reply as it streams. '-' reads the message from stdin.",
        discussion: """
            --file attaches a file (repeatable): images (PNG, JPEG, GIF, WebP, HEIC …), PDFs, text and other \
            documents; its type is read from its bytes. Files over the gateway's limits, and archives, which \
            gateways drop, are refused before anything is sent. '--file -' reads the file from stdin \
            (then the message cannot be '-'); --mime gives its type when its bytes do not tell.

            Text piped in with a message argument goes first, the message after it, as one message \
            (git diff | openclaw-chat send "review this"); </dev/null when nothing is piped.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Session key.") var session = "main"
    @Option(help: OptionValues.thinkingHelp) var thinking: String?
    @Flag(help: "One JSON object per line: deltas, activity, and the final message.") var json = false
    @Option(help: "Give up (and stop the run) when it has not ended after this many seconds. Default: no limit.")
    var timeout: Double?
    @Option(
        name: .customLong("idle-timeout"),
        help: "Give up (and stop the run) when nothing has happened for this many seconds.")
    var idleTimeout: Double = 600
    @Option(name: .customLong("file"), help: "Attach a file (repeatable); - reads it from stdin.") var files: [String] =
        []
    @Option(help: "The type of the file read from stdin when its bytes do not tell (e.g. text/csv).") var mime: String?
    @Argument(help: "The message, or - to read it from stdin. Optional with --file.") var message: String?

    func validate() throws {
        try OptionValues.checkSession(session)
        try OptionValues.checkThinking(thinking)
        if message == nil, files.isEmpty { throw ValidationError("Missing expected argument '<message>'") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("--file - can be given once") }
        if files.contains("-"), message == "-" {
            throw ValidationError("stdin cannot be both the message and a file: pass the message as an argument")
        }
        if mime != nil, !files.contains("-") { throw ValidationError("--mime applies to --file - only") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be a positive number of seconds") }
    }

    func run() async throws {
        let terminal = Terminal()
        do {
            let text = try resolveMessage()
            let attachments = try resolveAttachments()
            guard let target = try global.resolveGateway() else { throw CLIError.noGatewayConfigured }
            let connection = global.makeConnection(
                url: target.url, credential: target.credential, terminal: terminal, reconnect: OneShotRun.reconnect)
            // wss:// asks about a new certificate first; then the handshake (or, connected already, nothing)
            // runs while the store opens.
            if target.url.isSecure { _ = try await global.connectTrusting(connection, terminal: terminal) }
            let early = EarlyConnect(connection)
            // The same transcript database as the chat: what `send` said is in `search`, and a send
            // cut off by a crash is in the outbox for the next session (same key: never doubled).
            let store = await LocalStore.openAside(global.state, terminal: terminal, logger: global.makeLogger())
            let output = RunOutput(
                format: json ? .json : .text, showsActivity: terminal.stdoutIsTTY || global.verbose,
                markdown: json ? nil : MarkdownOutput.renderer(for: terminal))
            let run = OneShotRun(
                connection: connection,
                firstAttempt: early,
                store: store,
                terminal: terminal,
                output: output,
                policy: .oneShot(
                    overallTimeout: timeout.map { .seconds($0) }, idleTimeout: .seconds(idleTimeout))
            )
            let (result, runId) = try await run.perform(
                text: text, attachments: attachments, session: session,
                thinking: OptionValues.thinkingLevel(thinking))
            try OneShotRun.finish(result, runId: runId, json: json, terminal: terminal)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw report(error, terminal: terminal)
        }
    }

    /// Each `--file`, typed from its first bytes; nothing else is read until it is sent.
    private func resolveAttachments() throws -> [Attachment] {
        try files.map { path in
            if path == "-" {
                let bytes = PipedInput.readToEnd()
                return Attachment(bytes: bytes, fileName: "stdin", declaredType: mime.map(MediaType.init(mimeType:)))
            }
            do throws(AttachmentError) {
                return try Attachment.file(at: URL(fileURLWithPath: path))
            } catch {
                if case .unreadable(_, let reason) = error { throw CLIError.unreadableFile(path: path, reason: reason) }
                throw GatewayError.attachment(error)
            }
        }
    }

    private func resolveMessage() throws -> String {
        guard let message else { return "" }
        guard message == "-" else {
            guard !files.contains("-") else { return message }
            switch PipedInput.read() {
            case .none: return message
            case .text(let piped): return piped + "\n\n" + message
            case .tooLong:
                throw CLIError.message(
                    "The text piped in is over 4 MiB: attach it with --file - instead.", status: ExitStatus.usage)
            }
        }
        let text = String(decoding: PipedInput.readToEnd(), as: UTF8.self).trimming(.whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw CLIError.message("Nothing to send: stdin was empty.", status: ExitStatus.usage)
        }
        return text
    }
}
