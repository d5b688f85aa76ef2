import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A whole conversation through the view model over a real socket: the reply streams, ends, and the
/// transcript settles on exactly the gateway's stored history with the ids the user already saw.
@MainActor
@Suite("View model: conversation")
struct ConversationTests {
    /// Paced slowly enough (12 chunks, 60 ms apart: several 150 ms delta windows, even on a loaded machine)
    /// that polling sees the text grow.
    static let pacedAgent = ScriptedAgent(chunkSize: 6, chunkDelayMs: 60)

    @Test(arguments: GatewayFlavor.all)
    func aReplyStreamsThenSettlesOnHistory(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration(agent: Self.pacedAgent)) { fixture in
            let viewModel = fixture.viewModel
            #expect(viewModel.messages.isEmpty)
            #expect(viewModel.isRunning == false)

            // Watched from the moment the message is shown, as a UI is: `send` returns only once the
            // message is stored and acknowledged, which on a loaded machine has taken as long as the reply.
            let sending = Task { await viewModel.send("What is the harbour like today?") }
            #expect(await eventually { viewModel.isRunning })
            let stream = await LiveReplyObserver.watch(viewModel)
            let firstId = await sending.value
            #expect(viewModel.messages.first?.id == firstId)
            #expect(viewModel.messages.first?.role == .user)
            #expect(viewModel.messages.first?.status == .sent)

            let expectedReply = "You said: \"What is the harbour like today?\". This is the scripted test agent."
            #expect(stream.texts.count >= 2, "saw \(stream.texts)")
            #expect(stream.isGrowing, "saw \(stream.texts)")
            #expect(stream.texts.allSatisfy { expectedReply.hasPrefix($0) })
            #expect((stream.texts.first?.count ?? .max) < expectedReply.count, "no intermediate text was seen")
            #expect(stream.replyIds.count == 1)

            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(settled.history.last?.text == expectedReply)
            #expect(viewModel.messages.map(\.id) == [firstId] + stream.replyIds)
            #expect(viewModel.messages.allSatisfy { $0.source == .history })
            #expect(viewModel.messages.map(\.status) == [.sent, .complete])

            // A second exchange appends; the first rows keep their ids.
            let secondId = await viewModel.send("And tomorrow?")
            let second = await LiveReplyObserver.watch(viewModel)
            let again = await fixture.settled()
            #expect(again.transcript == again.history)
            #expect(again.history.map(\.role) == [.user, .assistant, .user, .assistant])
            #expect(viewModel.messages.map(\.id) == [firstId] + stream.replyIds + [secondId] + second.replyIds)
            #expect(await fixture.gateway.runCount() == 2)
        }
    }

    @Test(arguments: [GatewayFlavor.v4WithMessage, .v4WithoutMessage])
    func aV4ReplaceRewritesTheLiveText(flavor: GatewayFlavor) async throws {
        // Every rewrite on the wire: the throttle would coalesce the draft into the final text.
        var configuration = flavor.configuration(agent: Self.pacedAgent)
        configuration.deltaThrottleMs = 0
        try await ChatHarness.withViewModel(configuration) { fixture in
            let viewModel = fixture.viewModel
            await viewModel.send("shrink it please")
            let stream = await LiveReplyObserver.watch(viewModel)
            #expect(stream.texts.contains { $0.hasPrefix("Draft answer") }, "saw \(stream.texts)")
            #expect(stream.texts.contains { $0.hasPrefix("Final answer: 42.") }, "saw \(stream.texts)")
            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.last?.text == "Final answer: 42. Done.")
        }
    }

    @Test(arguments: GatewayFlavor.all)
    func aSilentReplyLeavesOnlyTheUserMessage(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let id = await fixture.viewModel.send("stay silent")
            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user])
            #expect(fixture.viewModel.messages.map(\.id) == [id])
        }
    }

    /// History may confirm the user's message before any event of its run is applied (a refresh that
    /// races the send); the run is still going and must count as running until its terminal event.
    @Test(arguments: GatewayFlavor.versions)
    func aSendConfirmedByHistoryBeforeItsEventsStillRuns(flavor: GatewayFlavor) async throws {
        // The text stays up 200 ms before the final, so polling cannot miss it.
        let agent = ScriptedAgent.custom { _ in
            AgentScript(steps: [.pause(ms: 200), .say("Short.")], chunkDelayMs: 200)
        }
        try await ChatHarness.withViewModel(flavor.configuration(agent: agent)) { fixture in
            let viewModel = fixture.viewModel
            let sending = Task { await viewModel.send("confirm me early") }
            let refreshing = Task { await viewModel.refreshHistory() }
            let id = await sending.value
            await refreshing.value
            #expect(viewModel.isRunning)

            let stream = await LiveReplyObserver.watch(viewModel)
            #expect(stream.texts == ["Short."])
            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.first?.id == id)
        }
    }

    @Test func stoppingDisconnectsAndSaysSo() async throws {
        try await ChatHarness.withViewModel(GatewayFlavor.v4WithMessage.configuration()) { fixture in
            await fixture.viewModel.stop()
            #expect(fixture.viewModel.connectionState.isConnected == false)
            #expect(await fixture.connection.state.isConnected == false)
        }
    }

    /// A view model started on a connection something else already opened must still load its session.
    @Test(arguments: GatewayFlavor.versions)
    func startingOnAnOpenConnectionLoadsTheSession(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            await fixture.viewModel.send("hello from the first screen")
            let first = await fixture.settled()
            #expect(first.transcript == first.history)

            let second = ChatSession(client: ChatClient(connection: fixture.connection))
            await second.start()
            let loaded = await eventually { HistoryRow.transcript(of: second) == first.history }
            #expect(loaded, "second view model shows \(HistoryRow.transcript(of: second))")
            #expect(second.connectionState.isConnected)
            await second.stop()
        }
    }
}
