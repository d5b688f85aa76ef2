import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// `/new` and `/reset`: `sessions.reset` when the connection holds `operator.admin`, the gateway's own
/// chat command otherwise; either way the old conversation leaves the transcript.
@MainActor
@Suite("View model: starting a session afresh")
struct ResetTests {
    @Test func withAdminTheSessionMethodEmptiesTheSession() async throws {
        let admin = OperatorScope.chatDefault + [OperatorScope.admin]
        try await ChatHarness.withViewModel(TestGatewayConfiguration(), scopes: admin) { fixture in
            let viewModel = fixture.viewModel
            _ = await viewModel.send("remember the blue door")
            _ = await fixture.settled(storedMessages: 2)
            #expect(viewModel.messages.map(\.text).contains("remember the blue door"))

            #expect(await viewModel.resetSession(.new) == .reset)
            #expect(viewModel.messages.isEmpty)
            #expect(await fixture.gateway.history(sessionKey: "main").isEmpty)
            // Nothing was sent as a message: the method did it.
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main").isEmpty)
        }
    }

    @Test func withoutAdminTheGatewaysCommandDoesItAndItsReplyFollows() async throws {
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            let viewModel = fixture.viewModel
            _ = await viewModel.send("remember the blue door")
            _ = await fixture.settled(storedMessages: 2)

            guard case .sentAsCommand(let runId) = await viewModel.resetSession(.reset) else {
                Issue.record("expected the command to be sent")
                return
            }
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["/reset"])
            #expect(viewModel.messages.first?.id == runId)
            #expect(!viewModel.messages.map(\.text).contains("remember the blue door"))
            #expect(viewModel.messages.last?.text == "New session started. What shall we work on?")
        }
    }

    @Test func withAdminWordsAfterTheCommandStartTheNewSession() async throws {
        let admin = OperatorScope.chatDefault + [OperatorScope.admin]
        try await ChatHarness.withViewModel(TestGatewayConfiguration(), scopes: admin) { fixture in
            _ = await fixture.viewModel.send("old topic")
            _ = await fixture.settled(storedMessages: 2)
            guard case .resetThenSent = await fixture.viewModel.resetSession(.new, then: "a new topic") else {
                Issue.record("expected a reset, then the words sent")
                return
            }
            _ = await fixture.settled(storedMessages: 2)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["a new topic"])
            #expect(fixture.viewModel.messages.first?.text == "a new topic")
        }
    }

    @Test func offlineNothingIsQueuedToWipeTheSessionLater() async throws {
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            await fixture.connection.disconnect()
            _ = await eventually { !fixture.viewModel.connectionState.isConnected }
            #expect(await fixture.viewModel.resetSession(.reset) == .failed(.notConnected))
            #expect(fixture.viewModel.outbox.isEmpty)
        }
    }

    @Test func theSessionMethodRefusedIsReportedAndChangesNothing() async throws {
        // The scope table of the test gateway keeps `sessions.reset` admin-only; asking without admin
        // through the client (as an older app would) is refused and the transcript stays.
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            _ = await fixture.viewModel.send("still here")
            _ = await fixture.settled(storedMessages: 2)
            await #expect(throws: GatewayError.self) {
                try await fixture.viewModel.client.resetSession(sessionKey: "main")
            }
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["still here"])
        }
    }
}
