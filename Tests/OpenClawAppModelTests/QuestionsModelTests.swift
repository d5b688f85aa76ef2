import OpenClawAppModel
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The app's question cards, against the test gateway over 127.0.0.1: the demo's agent asks, the card
/// shows it, an answer locks the card and the run goes on; a card another surface answers locks too.
@MainActor
@Suite("Agent questions in the app")
struct QuestionsModelTests {
    @Test func theDemoAsksAndAnAnsweredCardLocksWhileTheRunGoesOn() async throws {
        let app = AppModel(dependencies: AppHarness.dependencies())
        await app.launch()
        await app.startDemo()
        let context = try #require(app.demo?.context)
        let questions = try #require(context.questions, "the demo answers questions")
        #expect(context.connection.configuration.optionalScopes.contains(OperatorScope.questions))
        #expect(await waitUntil { questions.availability == .active })

        await context.chat.session.send("ask me")
        #expect(await waitUntil { questions.open.count == 1 })
        let card = try #require(questions.open.first)
        #expect(card.questions.first?.options.count == 3 && card.summary == nil)
        await questions.answer(card, ["deploy_target": ["Staging (Recommended)"]])
        #expect(questions.open.isEmpty)
        #expect(questions.cards.first?.isLocked == true)
        #expect(questions.cards.first?.summary == "Staging (Recommended)")
        // A second tap on the locked card sends nothing.
        await questions.skip(card)
        #expect(questions.notice == nil)
        let finished = await waitUntil {
            context.chat.messages.last.map { $0.role == .assistant && $0.text.contains("Carrying on") } ?? false
        }
        #expect(finished)
        await app.exitDemo()
    }

    @Test func aCardLocksWhenAnotherSurfaceAnswersFirst() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(deltaThrottleMs: 0))
        defer { Task { await gateway.stop() } }
        var dependencies = AppHarness.dependencies(saved: try AppHarness.saved(gateway))
        dependencies.answersQuestions = true
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        let context = try #require(await AppHarness.connectedChat(app))
        let questions = try #require(context.questions)
        #expect(await waitUntil { questions.availability == .active })

        var configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: gateway.url), credential: .token("test-token"),
            client: ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux", displayName: "Peter's Mac"))
        configuration.enableQuestions(required: true)
        let other = GatewayConnection(
            configuration: configuration,
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore())
        let otherClient = QuestionsClient(connection: other)
        await otherClient.start()
        try await other.connect()

        await context.chat.session.send("ask me")
        #expect(await waitUntil { questions.open.count == 1 })
        #expect(await eventually(timeout: .seconds(15)) { await otherClient.pending.count == 1 })
        let card = try #require(questions.open.first)
        try await otherClient.answer(card.id, text: "1")
        #expect(await waitUntil { questions.open.isEmpty })
        #expect(
            questions.cards.first?.outcome
                == .answered(QuestionAnswers(["deploy_target": ["Staging (Recommended)"]]), byUs: false))
        await otherClient.stop()
        await other.disconnect()
    }
}
