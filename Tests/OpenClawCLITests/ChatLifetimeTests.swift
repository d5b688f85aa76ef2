import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawCLI

/// The interactive chat's relays, watchers and worker are children of its `run()`: when `run()`
/// returns, none of them is still running (issue 37), even with approval and question cards followed.
@Suite("Interactive chat: no child outlives its run")
@MainActor
struct ChatLifetimeTests {
    @Test func nothingTheChatStartedRunsAfterItsRunReturns() async throws {
        try await withTestGateway(TestGatewayConfiguration(protocolNumber: 4, deltaThrottleMs: 0)) { gateway in
            let connection = try Self.connection(to: gateway)
            let approvals = ApprovalsClient(connection: connection)
            let questions = QuestionsClient(connection: connection)
            let interactive = InteractiveChat(
                chat: ChatSession(
                    client: ChatClient(connection: connection), sessionKey: "main", store: InMemoryChatStore()),
                connection: connection, terminal: Terminal(environment: ["NO_COLOR": "1"]), gatewayLabel: "test",
                approvals: approvals, questions: questions)
            let (lines, typing) = AsyncStream.makeStream(of: String.self)
            interactive.scriptedLines = lines
            // Typed once the chat is up (its relays and worker run, approvals and questions followed): the
            // input loop handles it after the cards' watchers started.
            let typist = Task {
                let up = await eventually {
                    let approving = await approvals.availability == .active
                    let answering = await questions.availability == .active
                    return approving && answering && interactive.children.running >= 3
                }
                typing.yield("/quit")
                return up
            }
            let status = await interactive.run()
            // Read before this task lets any other run on the main actor: what was only cancelled still counts.
            let left = interactive.children.running
            #expect(await typist.value)
            #expect(status == 0)
            #expect(left == 0, "\(left) of the chat's children still ran after its run() returned")
        }
    }

    /// A terminal's connection that follows approvals and questions.
    private static func connection(to gateway: TestGateway) throws -> GatewayConnection {
        var configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: gateway.url), credential: .token("test-token"),
            client: ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux", displayName: "lifetime"))
        configuration.enableApprovals(required: false)
        configuration.enableQuestions(required: false)
        return GatewayConnection(
            configuration: configuration,
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore())
    }
}
