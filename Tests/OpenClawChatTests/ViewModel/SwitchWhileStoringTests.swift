import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

@MainActor
@Suite("View model: switching while a page is stored")
struct SwitchWhileStoringTests {
    /// The switch lands while the previous session's page is still being written to the store: the
    /// fetch in flight must notice the new session and load it, or the new session stays unloaded.
    @Test func theNewSessionIsLoadedAfterThePageInFlightIsStored() async throws {
        let gateway = try await TestGateway.start(GatewayFlavor.v4WithMessage.configuration())
        let store = ObservedStore()
        let connection = try ChatHarness.connection(to: gateway)
        let viewModel = ChatSession(client: ChatClient(connection: connection), store: store)
        await viewModel.start()
        await viewModel.send("a note for main")
        let onMain = await eventually {
            !viewModel.isRunning && viewModel.messages.allSatisfy { $0.source == .history }
        }
        #expect(onMain && viewModel.messages.count == 2)

        await viewModel.switchSession(to: "agent:main:work")
        // Meanwhile another device writes to main: only a fetch can show it here.
        let other = try ChatHarness.connection(to: gateway)
        try await other.connect()
        _ = try await ChatClient(connection: other).send(
            sessionKey: "main", message: "a note from another device", idempotencyKey: "other-device-run")
        #expect(await eventually { await gateway.history(sessionKey: "main").count == 4 })
        await other.disconnect()

        await store.hold(true)
        let refresh = Task { await viewModel.refreshHistory() }
        #expect(await eventually { await store.recordsHeld == 1 })
        await viewModel.switchSession(to: "main")
        await store.hold(false)
        await refresh.value

        let loaded = await eventually {
            viewModel.messages.map(\.text).contains("a note from another device")
        }
        #expect(loaded, "shows \(viewModel.messages.map(\.text))")
        await viewModel.stop()
        await gateway.stop()
    }
}
