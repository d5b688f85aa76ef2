import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol
import Testing

/// Demo mode runs the test gateway's core in memory and chats with its scripted agent: no socket,
/// no port, nothing of it on the network.
@MainActor
@Suite("Demo mode")
struct DemoModelTests {
    @Test func theDemoChatsWithTheScriptedAgentAndStopsItsGateway() async throws {
        let dependencies = AppHarness.dependencies()
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        await app.startDemo()
        #expect(app.screen == .demo)
        let demo = try #require(app.demo)
        #expect(demo.phase == .running)
        let context = try #require(demo.context)
        let url = try GatewayURL(parsing: try #require(demo.gatewayURL))
        // In memory: the address names no reachable host (`.invalid` never resolves).
        #expect(url.host.hasSuffix(".invalid"))
        #expect(context.connection.configuration.client.id == .ios)

        await context.chat.session.send("use a tool")
        let finished = await waitUntil {
            context.chat.messages.last.map { $0.role == .assistant && $0.status == .complete } ?? false
        }
        #expect(finished)
        let reply = try #require(context.chatScreen.rows.last)
        #expect(reply.text.contains("healthy"))
        #expect(reply.steps.contains { $0.kind == .tool(name: "exec") }, "steps: \(reply.steps)")
        // Once history is read (it keeps the call and the answer in separate messages) the step stays
        // with the reply, on the same row.
        await context.chat.session.refreshHistory()
        let reread = try #require(context.chatScreen.rows.last)
        #expect(reread.id == reply.id && reread.text == reply.text)
        #expect(reread.steps.contains { $0.kind == .tool(name: "exec") }, "steps: \(reread.steps)")
        #expect(context.chatScreen.rows.count == 2, "the call is not a row of its own")

        await app.exitDemo()
        #expect(app.screen == .onboarding)
        #expect(app.demo == nil)
        #expect(demo.phase == .stopped)
        #expect(demo.gatewayURL == nil)
        #expect(await context.connection.state.isConnected == false)
        // Nothing of the demo reached the app's own store.
        #expect(try await dependencies.chatStore.search("tool", gateway: nil, limit: 10).isEmpty)

        // The demo was never on the network: its address reaches nothing.
        let probe = dependencies.makeConnectionForProbe(url: url)
        await #expect(throws: GatewayError.self) { try await probe.connect() }
    }

    /// A build without a demo says so instead of spinning: the model gets no gateway of its own.
    @Test func withoutADemoGatewayTheDemoSaysItIsNotInThisBuild() async throws {
        var dependencies = AppHarness.dependencies()
        dependencies.demoGateway = nil
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        await app.startDemo()
        let demo = try #require(app.demo)
        #expect(demo.phase == .failed("This build of the app has no demo."))
        #expect(demo.context == nil)
        await app.exitDemo()
        #expect(app.screen == .onboarding)
    }

    /// The factory's failure is shown, and nothing is left running.
    @Test func aDemoGatewayThatCannotStartIsReported() async throws {
        struct NoRoom: Error, CustomStringConvertible { var description: String { "no room" } }
        var dependencies = AppHarness.dependencies()
        dependencies.demoGateway = { throw NoRoom() }
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        await app.startDemo()
        #expect(app.demo?.phase == .failed("The demo gateway could not start: no room."))
        #expect(app.demo?.gatewayURL == nil)
    }
}

extension AppDependencies {
    /// A plain connection to `url`, to see whether anything still listens there.
    fileprivate func makeConnectionForProbe(url: GatewayURL) -> GatewayConnection {
        GatewayConnection(
            configuration: GatewayConnectionConfiguration(
                url: url, credential: .none, client: client, connectTimeout: .seconds(5)),
            identityStore: identityStore,
            tokenStore: tokenStore
        )
    }
}
