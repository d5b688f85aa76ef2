import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// Several sessions on one connection: each transcript shows only its own session, and switching
/// shows the other session's stored history.
@MainActor
@Suite("View model: sessions")
struct SessionTests {
    static let work = "agent:main:work"

    @Test(arguments: GatewayFlavor.versions)
    func sessionsStayApartAndSwitchingShowsTheirHistory(flavor: GatewayFlavor) async throws {
        let agent = ScriptedAgent(chunkSize: 4, chunkDelayMs: 15)
        try await ChatHarness.withViewModel(flavor.configuration(agent: agent)) { fixture in
            let viewModel = fixture.viewModel
            let mainId = await viewModel.send("hello main session")
            let onMain = await fixture.settled()
            #expect(onMain.transcript == onMain.history)

            await viewModel.switchSession(to: Self.work)
            #expect(viewModel.currentSessionKey == Self.work)
            #expect(viewModel.messages.isEmpty)
            let workId = await viewModel.send("hello work session")
            let onWork = await fixture.settled()
            #expect(onWork.transcript == onWork.history)
            #expect(onWork.history.map(\.text).contains { $0.contains("main session") } == false)
            #expect(viewModel.messages.first?.id == workId)

            await viewModel.switchSession(to: "main")
            let backOnMain = await fixture.settled()
            #expect(backOnMain.transcript == onMain.history)
            #expect(viewModel.messages.map(\.text).first == "hello main session")
            #expect(mainId != workId)
        }
    }

    /// A run of `main` streams while the view model shows another session: none of its events land.
    @Test(arguments: GatewayFlavor.all)
    func eventsOfAnotherSessionAreIgnored(flavor: GatewayFlavor) async throws {
        let agent = ScriptedAgent(chunkSize: 4, chunkDelayMs: 15)
        try await ChatHarness.withViewModel(flavor.configuration(agent: agent)) { fixture in
            let viewModel = fixture.viewModel
            let log = ChatEventLog(fixture.connection)
            await viewModel.switchSession(to: Self.work)
            await viewModel.send("a first note in work")
            let before = await fixture.settled()
            #expect(before.transcript == before.history)

            // Another client starts a run on main; its events reach this socket too.
            let other = try ChatHarness.connection(to: fixture.gateway)
            try await other.connect()
            let otherClient = ChatClient(connection: other)
            let otherRun = "other-client-run"
            _ = try await otherClient.send(
                sessionKey: "main", message: "a long message for main", idempotencyKey: otherRun)
            var leaked = false
            let finished = await eventually {
                leaked = leaked || viewModel.messages.contains { $0.runId == otherRun } || viewModel.isRunning
                return await HistoryRow.history(of: fixture.gateway, sessionKey: "main").count == 2
            }
            #expect(finished)
            let delivered = await eventually { log.chatSessionKeys(runId: otherRun).count > 2 }
            #expect(delivered, "the other session's events never reached this socket")
            #expect(leaked == false)
            #expect(HistoryRow.transcript(of: viewModel) == before.history)
            #expect(viewModel.transcript.outcome(ofRun: otherRun) == nil)
            await other.disconnect()

            await viewModel.switchSession(to: "main")
            let onMain = await fixture.settled()
            #expect(onMain.transcript == onMain.history)
            #expect(onMain.history.map(\.role) == [.user, .assistant])
        }
    }

    /// Switching while a history fetch of the old session is still out must still load the new one.
    @Test func switchingDuringAHistoryFetchLoadsTheNewSession() async throws {
        try await ChatHarness.withViewModel(GatewayFlavor.v4WithMessage.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await viewModel.switchSession(to: Self.work)
            await viewModel.send("something stored in work")
            let work = await fixture.settled()
            #expect(work.history.count == 2)
            await viewModel.switchSession(to: "main")
            #expect(viewModel.messages.isEmpty)

            await fixture.gateway.setFaults(FaultPlan(delayResponsesMs: 200))
            let slowFetch = Task { await viewModel.refreshHistory() }
            let fetching = await eventually { viewModel.transcript.historyRequestOutstanding }
            #expect(fetching)
            await viewModel.switchSession(to: Self.work)
            await slowFetch.value
            let shown = await eventually { HistoryRow.transcript(of: viewModel) == work.history }
            #expect(shown, "shows \(HistoryRow.transcript(of: viewModel))")
        }
    }
}
