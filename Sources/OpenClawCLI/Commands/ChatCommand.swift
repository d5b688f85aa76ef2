import ArgumentParser
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// `openclaw-chat` / `openclaw-chat chat`: the interactive chat. With no gateway configured anywhere it
/// starts the built-in demo gateway instead of failing, so a newcomer gets a working chat at once.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        _superCommandName: OpenClawChatCommand.name,
        abstract: "Chat interactively (the default). Starts the demo gateway when no gateway is configured."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Session key.") var session = "main"
    @Option(help: OptionValues.thinkingHelp) var thinking: String?
    @Flag(help: "Approve the agent's commands here: asks the gateway for operator.approvals (the demo always does).")
    var approvals = false
    @Flag(help: "Answer the agent's questions here: asks the gateway for operator.questions (the demo always does).")
    var questions = false

    func validate() throws {
        try OptionValues.checkSession(session)
        try OptionValues.checkThinking(thinking)
    }

    func run() async throws {
        let thinking = OptionValues.thinkingLevel(thinking)
        let terminal = Terminal()
        let target: (url: GatewayURL, credential: GatewayCredential)?
        do {
            target = try global.resolveGateway()
        } catch {
            throw report(error, terminal: terminal)
        }
        // A secret without an address goes to the local gateway; when nothing listens there, the demo.
        let noLocalGateway =
            target != nil && (try? global.usesLocalGatewayDefault()) == true
            && !LocalGatewayNote.isListening()
        if noLocalGateway {
            terminal.errorLine(
                terminal.styled(
                    "Nothing is listening at \(LocalGatewayNote.address): starting the built-in demo gateway instead "
                        + "(--url names another gateway).", .dim))
        }
        guard let target, !noLocalGateway else {
            if !noLocalGateway {
                terminal.errorLine(
                    terminal.styled(
                        "No gateway configured (--url/--token, OPENCLAW_GATEWAY_URL, or 'openclaw-chat login'): "
                            + "starting the built-in demo gateway.",
                        .dim
                    )
                )
            }
            let status = try await DemoSession.run(
                session: session, thinking: thinking, terminal: terminal, global: global)
            if status != 0 { throw ExitCode(status) }
            return
        }
        let approvals = self.approvals
        let questions = self.questions
        let connection = global.makeConnection(
            url: target.url, credential: target.credential, terminal: terminal, reconnect: .standard,
            configure: {
                if approvals { $0.enableApprovals(required: false) }
                if questions { $0.enableQuestions(required: false) }
            })
        // A certificate seen for the first time is asked about before the chat starts (any other
        // failure is the chat's to show and retry).
        if target.url.isSecure {
            do {
                _ = try await global.connectTrusting(connection, terminal: terminal)
            } catch .transport(.tlsTrust(let failure)) {
                throw report(GatewayError.transport(.tlsTrust(failure)), terminal: terminal)
            } catch {}
        }
        let status = await InteractiveSession.run(
            connection: connection,
            session: session,
            thinking: thinking,
            label: target.url.description,
            store: await LocalStore.openAside(global.state, terminal: terminal, logger: global.makeLogger()),
            terminal: terminal,
            inputHistory: InputHistory(path: global.state.inputHistoryFile)
        )
        if status != 0 { throw ExitCode(status) }
    }
}
