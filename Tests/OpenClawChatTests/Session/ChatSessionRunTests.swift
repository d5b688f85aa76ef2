import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawChat

/// A chat run by its owner's task: `run()` connects and follows while that task lives, and cancelling
/// the task closes the connection, so a screen that goes away cannot leave its chat connected.
@MainActor
@Suite("Chat session: run() in its owner's task")
struct ChatSessionRunTests {
    @Test func cancellingTheOwnerClosesTheConnection() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration())
        defer { Task { await gateway.stop() } }
        let connection = try ChatHarness.connection(to: gateway)
        let session = ChatSession(client: ChatClient(connection: connection))
        var returned = false
        let owner = Task {
            await session.run()
            returned = true
        }
        #expect(await eventually { session.connectionState.isConnected })
        await session.send("hello")
        #expect(await eventually { session.messages.contains { $0.role == .assistant } })

        owner.cancel()
        #expect(await eventually { returned })
        #expect(await connection.session == nil)
        #expect(!session.connectionState.isConnected)
    }
}
