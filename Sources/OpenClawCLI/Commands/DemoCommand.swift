import ArgumentParser

/// `openclaw-chat demo`: the interactive chat against the embedded test gateway and its scripted agent.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Start the built-in test gateway with a scripted agent on 127.0.0.1 and chat with it."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Session key.") var session = "main"
    @Option(name: .customLong("protocol"), help: "Protocol the demo gateway speaks: 3 or 4.") var protocolVersion = 4

    func validate() throws {
        try OptionValues.checkSession(session)
    }

    func run() async throws {
        let terminal = Terminal()
        let status = try await DemoSession.run(
            session: session,
            thinking: nil,
            terminal: terminal,
            global: global,
            protocolNumber: protocolVersion
        )
        if status != 0 { throw ExitCode(status) }
    }
}
