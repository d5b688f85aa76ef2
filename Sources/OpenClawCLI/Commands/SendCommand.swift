import ArgumentParser
import Foundation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// `openclaw-chat send`: one message, the streamed reply on stdout, an exit code that says how it ended.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one message and print the reply as it streams. '-' reads the message from stdin."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Session key.") var session = "main"
    @Option(help: "Thinking level: off, minimal, low, medium, high, xhigh.") var thinking: String?
    @Flag(help: "One JSON object per line: deltas, activity, and the final message.") var json = false
    @Option(help: "Give up (and stop the run) when it has not ended after this many seconds. Default: no limit.")
    var timeout: Double?
    @Option(
        name: .customLong("idle-timeout"),
        help: "Give up (and stop the run) when nothing has happened for this many seconds.")
    var idleTimeout: Double = 600
    @Argument(help: "The message, or - to read it from stdin.") var message: String

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be a positive number of seconds") }
    }

    func run() async throws {
        let terminal = Terminal()
        do {
            let text = try resolveMessage()
            guard let target = try global.resolveGateway() else { throw CLIError.noGatewayConfigured }
            let connection = global.makeConnection(
                url: target.url, credential: target.credential, terminal: terminal, reconnect: OneShotRun.reconnect)
            if target.url.isSecure { _ = try await global.connectTrusting(connection, terminal: terminal) }
            let output = RunOutput(
                format: json ? .json : .text, showsActivity: terminal.stdoutIsTTY || global.verbose,
                markdown: json ? nil : MarkdownOutput.renderer(for: terminal))
            let run = OneShotRun(
                connection: connection,
                terminal: terminal,
                output: output,
                policy: .oneShot(
                    overallTimeout: timeout.map { .seconds($0) }, idleTimeout: .seconds(idleTimeout))
            )
            let (result, runId) = try await run.perform(text: text, session: session, thinking: thinking)
            try OneShotRun.finish(result, runId: runId, json: json, terminal: terminal)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw report(error, terminal: terminal)
        }
    }

    private func resolveMessage() throws -> String {
        guard message == "-" else { return message }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw CLIError.message("Nothing to send: stdin was empty.", status: ExitStatus.usage)
        }
        return text
    }
}
