import OpenClawGateway
import OpenClawNode

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `!command` in the interactive chat: runs a shell command on this computer — after asking once per
/// chat, since a pasted line starting with `!` must not run anything by surprise — shows its output, and
/// offers to send that output to the agent.
///
/// The command gets no input (stdin is the chat's), its output is capped, and it is stopped after
/// ``timeout``; Ctrl-C while it runs leaves the chat and stops it with its whole process group.
struct ShellEscape {
    /// The question the next line answers.
    enum Question: Equatable {
        /// Whether `!` commands may run in this chat; the command waiting for the answer.
        case allowShell(command: String)
        /// Whether to send a command's output to the agent; the message that would be sent.
        case sendOutput(message: String)

        /// Said when the answer is not yes.
        var declined: String {
            switch self {
            case .allowShell: "not run"
            case .sendOutput: "not sent"
            }
        }
    }

    static let timeout = Duration.seconds(120)
    /// Bytes kept of each stream: enough for a page of logs, bounded for a command that floods.
    static let outputLimit = 64 * 1024

    let runner: any ProcessRunner

    /// Runs `command` with `/bin/sh -c` in the current directory.
    func run(_ command: String) async throws(NodeInvokeError) -> ProcessOutcome {
        try await runner.run(
            ProcessRequest(
                executablePath: "/bin/sh", arguments: ["-c", command], argv0: "sh",
                workingDirectory: FileManager.default.currentDirectoryPath,
                timeoutMs: Self.timeout.milliseconds, outputLimit: Self.outputLimit))
    }

    /// How it ended, in words: `exit 0`, `exit 2`, `killed by signal 9`, `stopped after 120 s`.
    static func ending(_ outcome: ProcessOutcome) -> String {
        if outcome.timedOut { return "stopped after \(timeout.components.seconds) s" }
        if let signal = outcome.signal { return "killed by signal \(signal)" }
        return "exit \(outcome.exitCode ?? -1)"
    }

    /// Output and errors together, as the person saw them (stdout first, then stderr).
    static func output(_ outcome: ProcessOutcome) -> String {
        var text = outcome.stdout
        if !outcome.stderr.isEmpty {
            if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
            text += outcome.stderr
        }
        if outcome.truncated { text += (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + "… (output cut)" }
        return text
    }

    /// The message that shares a command's output with the agent: the command, how it ended, and the
    /// output in a fenced block (a fence longer than any backtick run inside, so it cannot be closed early).
    static func message(command: String, outcome: ProcessOutcome) -> String {
        let output = Self.output(outcome)
        var longestRun = 0
        var run = 0
        for character in output {
            run = character == "`" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let fence = String(repeating: "`", count: max(3, longestRun + 1))
        let body = output.hasSuffix("\n") ? output : output + "\n"
        return "I ran `\(command)` (\(ending(outcome))):\n\(fence)text\n\(body)\(fence)"
    }
}
