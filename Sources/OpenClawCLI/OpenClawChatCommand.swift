import ArgumentParser

/// The `openclaw-chat` command: a terminal client for OpenClaw gateways.
public struct OpenClawChatCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "openclaw-chat",
        abstract: "Chat with your OpenClaw agent from the terminal.",
        version: ClientIdentity.version,
        subcommands: [
            ChatCommand.self, SendCommand.self, HistoryCommand.self, SessionsCommand.self, SearchCommand.self,
            StatusCommand.self,
            LoginCommand.self, LogoutCommand.self, TrustCommand.self, DoctorCommand.self, DemoCommand.self,
            GatewayCommand.self,
            NodeCommand.self, ApprovalsCommand.self,
        ],
        defaultSubcommand: ChatCommand.self
    )

    public init() {}
}

/// The executable's entry point, so the executable target stays a one-liner.
public enum OpenClawChatEntry {
    public static func main() async {
        Terminal.ignoreBrokenPipeSignal()
        await OpenClawChatCommand.main()
    }
}
