import ArgumentParser
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// `openclaw-chat` / `openclaw-chat chat`: the interactive chat. With no gateway configured anywhere it
/// starts the built-in demo gateway instead of failing, so a newcomer gets a working chat at once.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat interactively (the default). Starts the demo gateway when no gateway is configured."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Session key.") var session = "main"
    @Option(help: "Thinking level: off, minimal, low, medium, high, xhigh.") var thinking: String?

    func run() async throws {
        let terminal = Terminal()
        let target: (url: GatewayURL, credential: GatewayCredential)?
        do {
            target = try global.resolveGateway()
        } catch {
            throw report(error, terminal: terminal)
        }
        guard let target else {
            terminal.errorLine(
                terminal.styled(
                    "No gateway configured (--url/--token, OPENCLAW_GATEWAY_URL, or 'openclaw-chat login'): "
                        + "starting the built-in demo gateway.",
                    .dim
                )
            )
            let status = try await DemoSession.run(
                session: session, thinking: thinking, terminal: terminal, global: global)
            if status != 0 { throw ExitCode(status) }
            return
        }
        let connection = global.makeConnection(
            url: target.url, credential: target.credential, terminal: terminal, reconnect: .standard)
        let status = await InteractiveSession.run(
            connection: connection,
            session: session,
            thinking: thinking,
            label: target.url.description,
            terminal: terminal
        )
        if status != 0 { throw ExitCode(status) }
    }
}

/// `openclaw-chat demo`: the interactive chat against the embedded test gateway and its scripted agent.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the built-in test gateway with a scripted agent on 127.0.0.1 and chat with it."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Session key.") var session = "main"
    @Option(name: .customLong("protocol"), help: "Protocol the demo gateway speaks: 3 or 4.") var protocolVersion = 4

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

enum InteractiveSession {
    @MainActor
    static func run(
        connection: GatewayConnection,
        session: String,
        thinking: String?,
        label: String,
        terminal: Terminal
    ) async -> Int32 {
        let viewModel = ChatViewModel(client: ChatClient(connection: connection), sessionKey: session)
        viewModel.thinkingLevel = thinking
        return await InteractiveChat(
            viewModel: viewModel, connection: connection, terminal: terminal, gatewayLabel: label
        ).run()
    }
}

/// The demo: an embedded gateway on an ephemeral loopback port with a one-off token, and a client with
/// a throwaway identity, so trying it leaves nothing behind.
enum DemoSession {
    static func run(
        session: String,
        thinking: String?,
        terminal: Terminal,
        global: GlobalOptions,
        protocolNumber: Int = 4
    ) async throws -> Int32 {
        let token = RequestID.make()
        var configuration = TestGatewayConfiguration(protocolNumber: protocolNumber)
        configuration.auth = .token(token)
        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }
        terminal.errorLine(
            terminal.styled(
                "Demo gateway on \(gateway.url). Try: hello · use a tool · slow (then Ctrl-C) · fail",
                .dim
            )
        )
        let connection = GatewayConnection(
            configuration: GatewayConnectionConfiguration(
                url: try GatewayURL(parsing: gateway.url),
                credential: .token(token),
                client: ClientIdentity.terminal
            ),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: Int(UnixTime.nowMs()))),
            tokenStore: InMemoryDeviceTokenStore(),
            logger: global.makeLogger()
        )
        return await InteractiveSession.run(
            connection: connection,
            session: session,
            thinking: thinking,
            label: "the demo gateway",
            terminal: terminal
        )
    }
}
