import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// The demo: an embedded gateway on an ephemeral loopback port with a one-off token, and a client with
/// a throwaway identity, so trying it leaves nothing behind.
enum DemoSession {
    static func run(
        session: String,
        thinking: ThinkingLevel?,
        terminal: Terminal,
        global: GlobalOptions,
        protocolNumber: Int = 4
    ) async throws -> Int32 {
        let token = RequestID.make()
        var configuration = TestGatewayConfiguration(protocolNumber: protocolNumber)
        configuration.auth = .token(token)
        let gateway = try await TestGateway.start(configuration)
        // Unstructured: a defer cannot await; the process ends right after the chat, the gateway with it.
        defer { Task { await gateway.stop() } }
        terminal.errorLine(
            terminal.styled(
                "Demo gateway on \(gateway.url). Try: hello · use a tool · markdown · run a command (then /approve) · ask me (then /answer 1) · slow (then Ctrl-C) · fail",
                .dim
            )
        )
        // A throwaway identity, tokens and pins: trying the demo leaves nothing behind.
        var connector = global.connector
        connector.identityStore = InMemoryDeviceIdentityStore(
            identity: DeviceIdentity(createdAtMs: Int(UnixTime.nowMs())))
        connector.tokenStore = InMemoryDeviceTokenStore()
        connector.tlsPinStore = InMemoryTLSPinStore()
        let connection = connector.connection(
            to: try GatewayURL(parsing: gateway.url), credential: .token(token), reconnect: .standard
        ) { configuration in
            // The demo's scripted agent asks for approval on "run a command": the demo is always an approver…
            configuration.enableApprovals(required: false)
            // …and asks a question on "ask me": the demo answers them too.
            configuration.enableQuestions(required: false)
        }
        return await InteractiveSession.run(
            connection: connection,
            session: session,
            thinking: thinking,
            label: "the demo gateway",
            store: InMemoryChatStore(),
            terminal: terminal
        )
    }
}
