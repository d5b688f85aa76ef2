import ArgumentParser
import Testing

@testable import OpenClawCLI

/// A command is parsed with its subcommand as the root (cheaper: no completion-script pseudo-commands),
/// and only when that gives what the whole tree gives; help and errors always come from the tree (the
/// root's `--help` alone is the tree's help text, printed without a parse).
@Suite("Parsing a subcommand on its own")
struct SubcommandParsingTests {
    @Test func everySubcommandCanBeParsedAsARoot() {
        for subcommand in OpenClawChatCommand.configuration.subcommands {
            #expect(
                subcommand.configuration._superCommandName == OpenClawChatCommand.name,
                "\(subcommand) would always be parsed from the root")
        }
    }

    @Test func aCommandParsedAloneIsTheOneTheTreeGives() throws {
        let lines: [[String]] = [
            ["search", "--all-gateways", "--limit", "5", "cache", "inval"],
            ["send", "--url", "ws://127.0.0.1:1", "--token", "t", "--json", "hello there"],
            ["history", "--limit", "3", "--session", "work"],
            ["status", "--url", "wss://gateway.example:443"],
            ["chat", "--url", "ws://127.0.0.1:1"],
        ]
        for arguments in lines {
            let alone = try #require(OpenClawChatEntry.parseSubcommandAlone(arguments), "\(arguments)")
            let fromTree = try OpenClawChatCommand.parseAsRoot(arguments)
            #expect(type(of: alone) == type(of: fromTree))
            #expect(String(reflecting: alone) == String(reflecting: fromTree))
        }
        let search = try #require(
            OpenClawChatEntry.parseSubcommandAlone(["search", "--limit", "5", "cache", "inval"]) as? SearchCommand)
        #expect(search.limit == 5 && search.words == ["cache", "inval"] && !search.allGateways)
    }

    @Test func helpErrorsAndNestedCommandsGoThroughTheTree() {
        for arguments in [
            [], ["--url", "ws://127.0.0.1:1"], ["search", "--help"], ["help", "search"], ["send", "--bogus"],
            ["send", "--timeout", "0", "hi"], ["search", "--generate-completion-script", "bash"],
            ["approvals", "watch"], ["approvals"], ["sned", "hi"], ["search", "--version"],
        ] {
            #expect(OpenClawChatEntry.parseSubcommandAlone(arguments) == nil, "\(arguments)")
        }
    }

    /// `--help` alone is answered before the parse; the text is still ArgumentParser's, at the width it
    /// would use (`COLUMNS`, else the terminal's, else 80).
    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func rootHelpAloneIsArgumentParsersText(_ arguments: [String]) async throws {
        for columns in [57, 80, 123] {
            let help = try await CLIProcess.run(arguments, environment: ["COLUMNS": "\(columns)"])
            #expect(help.status == 0)
            #expect(help.stdout == OpenClawChatCommand.helpMessage(columns: columns) + "\n", "\(help.stdout)")
        }
    }

    @Test func versionAloneIsOneLine() async throws {
        let version = try await CLIProcess.run(["--version"])
        #expect(version.status == 0)
        // A packaged build names its commit (CI runs this against one), a work tree's says it has none.
        #expect(version.stdout.hasPrefix("\(BuildInfo.version) (commit ") && version.stdout.hasSuffix(")\n"))
        #expect(version.stdout.split(separator: "\n").count == 1, "\(version.stdout)")
    }

    @Test func usageAndHelpStillNameTheProgram() async throws {
        let bogus = try await CLIProcess.run(["send", "--bogus"])
        #expect(bogus.status == ExitStatus.usage)
        #expect(bogus.stderr.contains("See 'openclaw-chat send --help' for more information."))
        let help = try await CLIProcess.run(["search", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: openclaw-chat search "))
    }
}
