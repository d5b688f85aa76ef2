import ArgumentParser
import OpenClawGateway
import OpenClawProtocol
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `openclaw-chat` command: a terminal client for OpenClaw gateways.
public struct OpenClawChatCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: OpenClawChatCommand.name,
        abstract: "Chat with your OpenClaw agent from the terminal.",
        version: BuildInfo.versionLine,
        subcommands: [
            ChatCommand.self, SendCommand.self, HistoryCommand.self, SessionsCommand.self, SearchCommand.self,
            StatusCommand.self,
            LoginCommand.self, LogoutCommand.self, GatewaysCommand.self, TrustCommand.self, DoctorCommand.self,
            DemoCommand.self, GatewayCommand.self, DiscoverCommand.self,
            NodeCommand.self, ApprovalsCommand.self,
        ],
        defaultSubcommand: ChatCommand.self
    )

    public init() {}

    /// The program's name; its subcommands name it as their super-command, so that each can be parsed as a
    /// root of its own (see `OpenClawChatEntry.parseSubcommandAlone`).
    static let name = "openclaw-chat"

    /// The subcommands' names, for "did you mean".
    static var subcommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }
}

/// The executable's entry points (`answerAtOnceIfAsked`, `parsedCommand`, `run`), so the executable
/// target only orders them around the network's set-up.
///
/// It parses and runs the command itself (as `AsyncParsableCommand.main()` does) to keep the README's
/// exit codes: a usage error exits 2, not ArgumentParser's 64 (`EX_USAGE`), and a mistyped subcommand
/// gets "did you mean" instead of "unexpected argument" from the default command.
public enum OpenClawChatEntry {
    /// Whether ``run(_:)`` found itself on one of the network's event loops: where the program's tasks
    /// run, as observed (`--verbose` says it).
    static let entryRanOnEventLoop = Atomic<Bool>(false)

    /// The command the command line names; exits, with the README's codes and messages, when it names
    /// none. Synchronous, so a program can parse on its main thread while its event loops start. After
    /// ``answerAtOnceIfAsked()``, which also sets the broken-pipe signal aside.
    public static func parsedCommand() -> any ParsableCommand {
        let arguments = ArgumentOrder.rearranged(Array(CommandLine.arguments.dropFirst()))
        if let first = arguments.first, let message = unknownCommandMessage(first) {
            Terminal.writeAll("Error: \(message)\n", to: STDERR_FILENO)
            Terminal.writeAll("Run 'openclaw-chat --help' for the commands.\n", to: STDERR_FILENO)
            exit(ExitStatus.usage)
        }
        do {
            return try parseSubcommandAlone(arguments) ?? OpenClawChatCommand.parseAsRoot(arguments)
        } catch {
            exitReporting(error)
        }
    }

    /// Runs a command from ``parsedCommand()`` and exits as the README says when it fails.
    public static func run(_ command: any ParsableCommand) async {
        entryRanOnEventLoop.store(NetworkThreads.currentThreadIsEventLoop, ordering: .relaxed)
        var command = command
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            LocalStore.closeAll()
        } catch {
            LocalStore.closeAll()
            exitReporting(error)
        }
    }

    /// Whether the command line names a command that never opens a connection (`search`): such a
    /// program has no use for the network's event loops, whose start (a thread a core, their selectors)
    /// is a tenth of a search. The word ``parseSubcommandAlone(_:)`` reads as the command, found without
    /// looking any command up (that costs the runtime's first look-ups of ArgumentParser's types, which
    /// the parse makes anyway, once the loops are starting beside it).
    public static var commandLineNeedsNoNetwork: Bool {
        ArgumentOrder.commandWord(Array(CommandLine.arguments.dropFirst())) == SearchCommand.name
    }

    /// A usage error exits 2 with ArgumentParser's message; ArgumentParser's own exits (help, an
    /// `ExitCode`) keep their codes; anything else is a local failure with its documented code, never a
    /// bare 1.
    private static func exitReporting(_ error: any Error) -> Never {
        let code = OpenClawChatCommand.exitCode(for: error)
        if code == .validationFailure {
            let message = OpenClawChatCommand.fullMessage(for: error)
            Terminal.writeAll(message + "\n", to: STDERR_FILENO)
            exit(ExitStatus.usage)
        }
        if code == .success || error is ExitCode || error is CleanExit {
            OpenClawChatCommand.exit(withError: error)
        }
        Terminal.writeAll("error: \(TerminalText.escapedLine("\(error)"))\n", to: STDERR_FILENO)
        exit(ExitStatus.local)
    }

    /// Answers `--help` and `--version` (see ``rootAnswer(_:)``) and exits; returns for anything else.
    /// Before anything is set up: the program's `main` calls it before it moves Swift's tasks onto the
    /// network's threads, whose set-up (the runtime's first look-ups of SwiftNIO's types) a help text
    /// does not need.
    public static func answerAtOnceIfAsked() {
        Terminal.ignoreBrokenPipeSignal()
        // The command line as typed: the shared options moved by `ArgumentOrder` are never alone.
        guard let text = rootAnswer(Array(CommandLine.arguments.dropFirst())) else { return }
        // Nothing draws an input line yet, so nothing is routed around one.
        Terminal.writeAllUnintercepted(text + "\n", to: STDOUT_FILENO)
        exit(0)
    }

    /// `--help` and `--version` on their own, answered without a parse: parsing costs the runtime's
    /// first look-ups of ArgumentParser's types (a scan of every conformance record of the binary each,
    /// about 12M instructions, 70% of `--version`), which the help text itself does not need.
    static func rootAnswer(_ arguments: [String]) -> String? {
        switch arguments {
        case ["--version"]: BuildInfo.versionLine
        case ["--help"], ["-h"], ["help"]: OpenClawChatCommand.helpMessage()
        default: nil
        }
    }

    /// The command `arguments` name, parsed with its subcommand as the root; nil when that does not give
    /// exactly that subcommand (a help request, an error) or the subcommand has commands of its own: those
    /// go through the whole tree as before, so help and error messages are the tree's.
    ///
    /// Parsing from the root makes ArgumentParser build, by reflection, two pseudo-commands that look for
    /// `--generate-completion-script` and the argument set of the matched subcommand once more; with the
    /// conformance lookups that reflection makes, that was about a tenth of a static `search`'s CPU.
    /// A root that names a super-command skips the pseudo-commands (ArgumentParser does not offer
    /// completion scripts to plugins' commands); `--generate-completion-script` still works, from the
    /// tree.
    static func parseSubcommandAlone(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let first = arguments.first,
            let subcommand = OpenClawChatCommand.configuration.subcommands.first(where: {
                $0.configuration.commandName == first && $0.configuration._superCommandName != nil
                    && $0.configuration.subcommands.isEmpty
            }),
            let command = try? subcommand.parseAsRoot(Array(arguments.dropFirst())),
            type(of: command) == subcommand
        else { return nil }
        return command
    }

    /// "unknown command 'sned'. Did you mean 'send'?" (or the list of commands when nothing resembles it)
    /// for a first word that is neither an option nor a command — the default command takes no
    /// arguments, so such a word is always a mistake; nil for an option or a command.
    static func unknownCommandMessage(_ first: String) -> String? {
        let names = OpenClawChatCommand.subcommandNames
        guard !first.hasPrefix("-"), !names.contains(first) else { return nil }
        guard let suggestion = CommandSuggestion.closest(to: first, in: names) else {
            return "unknown command '\(TerminalText.escapedLine(first))'; commands: "
                + names.filter { $0 != "help" }.joined(separator: ", ")
        }
        return "unknown command '\(TerminalText.escapedLine(first))'. Did you mean '\(suggestion)'? "
            + "To ask it as a question: openclaw-chat send \(ShellWord.quoted(first))"
    }
}
