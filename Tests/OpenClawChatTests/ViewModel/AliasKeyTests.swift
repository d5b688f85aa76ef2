import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// `main` and the gateway's canonical `agent:main:main` name one session: the gateway stamps run
/// events with the canonical key while the client said `main`, and the reverse.
@MainActor
@Suite("View model: alias session keys")
struct AliasKeyTests {
    @Test(arguments: GatewayFlavor.all)
    func aViewModelOnMainFollowsEventsStampedWithTheCanonicalKey(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration(), sessionKey: "main") { fixture in
            let log = ChatEventLog(fixture.connection)
            let viewModel = fixture.viewModel
            let runId = await viewModel.send("which key do you use?")
            let ended = await eventually { viewModel.transcript.outcome(ofRun: runId) == .completed }
            #expect(ended)
            let keys = log.chatSessionKeys(runId: runId)
            #expect(!keys.isEmpty && keys.allSatisfy { $0 == "agent:main:main" }, "chat keys: \(keys)")
            #expect(Set(log.agentSessionKeys(runId: runId)) == ["agent:main:main"])

            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(viewModel.messages.map(\.id) == [runId, "reply:\(runId)"])
        }
    }

    /// A view model on the canonical key shows a run another client started on `main`.
    @Test(arguments: GatewayFlavor.versions)
    func aViewModelOnTheCanonicalKeyFollowsRunsSentToMain(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration(), sessionKey: "agent:main:main") { fixture in
            let viewModel = fixture.viewModel
            let other = try ChatHarness.connection(to: fixture.gateway)
            try await other.connect()
            let runId = "sent-to-main-alias"
            _ = try await ChatClient(connection: other).send(
                sessionKey: "main", message: "from another screen", idempotencyKey: runId)
            let seen = await eventually { viewModel.transcript.outcome(ofRun: runId) == .completed }
            #expect(seen)
            let settled = await fixture.settled()
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.last?.id == "reply:\(runId)")
            await other.disconnect()
        }
    }
}
