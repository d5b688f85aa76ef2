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
    @Argument(help: "The message, or - to read it from stdin.") var message: String

    func run() async throws {
        let terminal = Terminal()
        do {
            let text = try resolveMessage()
            guard let target = try global.resolveGateway() else { throw CLIError.noGatewayConfigured }
            let connection = global.makeConnection(url: target.url, credential: target.credential, terminal: terminal)
            let output = RunOutput(format: json ? .json : .text, showsActivity: terminal.stdoutIsTTY || global.verbose)
            let result = try await OneShotRun.perform(
                text: text,
                session: session,
                thinking: thinking,
                connection: connection,
                terminal: terminal,
                output: output
            )
            try OneShotRun.finish(result, json: json, terminal: terminal)
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

/// Sending one message through the view model and following its run to the end.
@MainActor
enum OneShotRun {
    static func perform(
        text: String,
        session: String,
        thinking: String?,
        connection: GatewayConnection,
        terminal: Terminal,
        output: RunOutput
    ) async throws -> FollowedRunResult {
        let viewModel = ChatViewModel(client: ChatClient(connection: connection), sessionKey: session)
        viewModel.thinkingLevel = thinking
        await viewModel.start()
        guard viewModel.connectionState.isConnected else {
            throw viewModel.connectionState.unavailableError
        }
        let runId = await viewModel.send(text)
        var follower = RunFollower(viewModel: viewModel, terminal: terminal, output: output)
        let result = await follower.follow(runId: runId, stopOnDisconnect: true)
        await viewModel.stop()
        return result
    }

    /// Prints the ending and maps it to the exit code: 0 only for a run that ended in `final`.
    nonisolated static func finish(_ result: FollowedRunResult, json: Bool, terminal: Terminal) throws {
        switch result {
        case .completed(let text):
            if json { terminal.line(JSONSerializer.string(["type": "final", "text": .string(text)])) }
        case .stopped(let text, let reason):
            if json { terminal.line(JSONSerializer.string(["type": "aborted", "text": .string(text)])) }
            terminal.error("The run was stopped\(reason.map { " (\($0))" } ?? "").", hint: nil)
            throw ExitCode(ExitStatus.aborted)
        case .failed(let message):
            if json { terminal.line(JSONSerializer.string(["type": "error", "message": .string(message)])) }
            terminal.error("The agent's run failed: \(message)", hint: nil)
            throw ExitCode(ExitStatus.runError)
        case .notSent(let reason):
            terminal.error("The message was not sent: \(reason)", hint: nil)
            throw ExitCode(ExitStatus.connection)
        case .queued(let ambiguous):
            if ambiguous {
                terminal.error(
                    "The connection ended before the gateway confirmed the message.",
                    hint: "It may have arrived: check with 'openclaw-chat history' before sending it again.")
            } else {
                terminal.error("The message was not sent: the connection ended first.", hint: nil)
            }
            throw ExitCode(ExitStatus.connection)
        case .connectionLost(let reason):
            let error = GatewayError.connectionLost(reason ?? .connectionLost)
            terminal.error(error.message, hint: "The reply may still arrive: check with 'openclaw-chat history'.")
            throw ExitCode(ExitStatus.connection)
        }
    }
}
