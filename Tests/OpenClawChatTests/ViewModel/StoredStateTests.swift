import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// `loadStoredState()` paints from the store without a connection, and `start()` joins it rather than
/// reading the store again. (That `send` calls it during its handshake is a speed change, measured by the
/// benchmark suite, not asserted here.)
@MainActor
@Suite("View model: the stored state, loaded ahead of start")
struct StoredStateTests {
    @Test func theStoredStateLoadsWithoutAConnectionAndOnlyOnce() async throws {
        let base = InMemoryChatStore()
        let gateway = try await TestGateway.start(GatewayFlavor.v4WithMessage.configuration())
        defer { Task { await gateway.stop() } }

        var storedIds: [String] = []
        do {
            let connection = try ChatHarness.connection(to: gateway)
            let viewModel = ChatSession(client: ChatClient(connection: connection), store: base, gatewayID: "home")
            await viewModel.start()
            _ = await viewModel.send("remember me")
            #expect(await eventually { !viewModel.isRunning && viewModel.messages.count == 2 })
            #expect(await eventually { viewModel.messages.allSatisfy { $0.source == .history } })
            storedIds = viewModel.messages.map(\.id)
            await viewModel.stop()
        }

        let store = ObservedStore(base)
        let connection = try ChatHarness.connection(to: gateway)
        let viewModel = ChatSession(client: ChatClient(connection: connection), store: store, gatewayID: "home")
        async let first: Void = viewModel.loadStoredState()
        async let second: Void = viewModel.loadStoredState()
        _ = await (first, second)
        #expect(viewModel.messages.map(\.id) == storedIds)
        #expect(await connection.state == .disconnected(nil))
        #expect(await store.transcriptReads == 1)

        await viewModel.start()
        #expect(viewModel.connectionState.isConnected)
        #expect(await eventually { viewModel.transcript.pendingHistoryRefresh == nil })
        #expect(viewModel.messages.map(\.id) == storedIds)
        #expect(await store.transcriptReads == 1, "start() read the store again")
        await viewModel.stop()
    }
}
