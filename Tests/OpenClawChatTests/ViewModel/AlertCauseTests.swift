import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// Every alert says what raised it, so code that acts on alerts decides by the cause, not the text.
@MainActor
@Suite("Alert causes")
struct AlertCauseTests {
    /// An in-memory store whose `enqueue` throws the given error.
    private struct RefusingStore: ChatStore {
        let base = InMemoryChatStore()
        let error: any Error & Sendable

        func latestMessages(gateway: String, sessionKey: String, limit: Int) async throws -> [StoredMessage] {
            await base.latestMessages(gateway: gateway, sessionKey: sessionKey, limit: limit)
        }
        func record(_ messages: [StoredMessage], gateway: String, sessionKey: String) async throws {
            await base.record(messages, gateway: gateway, sessionKey: sessionKey)
        }
        func search(_ query: String, gateway: String?, limit: Int) async throws -> [SearchHit] {
            await base.search(query, gateway: gateway, limit: limit)
        }
        func enqueue(_ message: OutboxMessage) async throws { throw error }
        func update(_ message: OutboxMessage) async throws { await base.update(message) }
        func removeFromOutbox(id: String, gateway: String) async throws {
            await base.removeFromOutbox(id: id, gateway: gateway)
        }
        func outbox(gateway: String) async throws -> [OutboxMessage] { await base.outbox(gateway: gateway) }
    }

    private struct DiskFull: Error {}
    private struct TooLarge: OutboxRefusal {
        var description: String { "its files pass the store's bound" }
    }

    /// Sends one message through a view model on `store` (not connected: it only queues) and returns
    /// the alerts raised.
    private func alertsAfterQueueing(on store: any ChatStore) async throws -> [ChatAlert] {
        try await withTestGateway { gateway in
            let connection = try ChatHarness.connection(to: gateway)
            let viewModel = ChatSession(client: ChatClient(connection: connection), store: store)
            _ = await viewModel.send("hello")
            #expect(await eventually { !viewModel.alerts.isEmpty })
            await viewModel.stop()
            return viewModel.alerts
        }
    }

    @Test func aStoreFailureIsCausedByTheStore() async throws {
        let alerts = try await alertsAfterQueueing(on: RefusingStore(error: DiskFull()))
        #expect(alerts.map(\.cause) == [.storeFailed])
    }

    @Test func aDeclinedMessageIsCausedByTheOutboxRefusal() async throws {
        let alerts = try await alertsAfterQueueing(on: RefusingStore(error: TooLarge()))
        #expect(alerts.map(\.cause) == [.messageNotKept])
    }

    @Test func aGatewayRefusalCarriesTheGatewayError() async throws {
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            let viewModel = fixture.viewModel
            _ = await viewModel.send("nul\u{0}byte")
            let alert = try #require(viewModel.alerts.last)
            guard case .gateway(.requestFailed(let method, _)) = alert.cause else {
                Issue.record("expected a refused chat.send, got \(alert.cause)")
                return
            }
            #expect(method == GatewayMethodName.chatSend)
        }
    }

    @Test func alertsAreDismissedByCauseWhateverTheirText() async throws {
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            let viewModel = fixture.viewModel
            let pairing = GatewayError.pairingRequired(.init(requestId: "r1", reason: .notPaired))
            viewModel.raise(pairing)
            // Our own alert worded like the pairing one stays: only the cause decides.
            viewModel.raise(message: pairing.message, nextStep: nil, cause: .storeFailed)
            viewModel.dismissAlerts(where: \.isPairingRequired)
            #expect(viewModel.alerts.map(\.cause) == [.storeFailed])
        }
    }
}
