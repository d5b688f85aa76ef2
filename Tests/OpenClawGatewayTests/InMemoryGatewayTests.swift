import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The test gateway's core without a socket: the same handshake, chat and refusals through its
/// in-memory transport (what the app's demo runs on).
@Suite("Test gateway in memory")
struct InMemoryGatewayTests {
    @Test(arguments: [3, 4])
    func aClientSignsInAndChatsWithNoSocket(version: Int) async throws {
        let gateway = TestGateway.inMemory(TestGatewayConfiguration(protocolNumber: version))
        defer { Task { await gateway.stop() } }
        #expect(gateway.port == 0)
        let connection = try Harness.connection(url: gateway.url, transport: gateway.inMemoryTransport())
        let session = try await connection.connect()
        #expect(session.protocolVersion.rawValue == version)

        let client = ChatClient(connection: connection)
        _ = try await client.send(sessionKey: "main", message: "hello", idempotencyKey: "in-memory-1")
        #expect(
            await eventually(timeout: .seconds(10)) {
                await gateway.history(sessionKey: "main").contains { $0["role"]?.stringValue == "assistant" }
            })
        let page = try await client.history(sessionKey: "main")
        #expect(page.messages.map(\.role) == [.user, .assistant])
        #expect(await gateway.runCount() == 1)
        await connection.disconnect()
        #expect(await eventually { await gateway.connectionCount() == 0 })
    }

    @Test func aWrongTokenIsRefusedAsOnASocket() async throws {
        let gateway = TestGateway.inMemory()
        defer { Task { await gateway.stop() } }
        let connection = try Harness.connection(
            url: gateway.url, credential: .token("not-the-token"), transport: gateway.inMemoryTransport())
        await #expect {
            try await connection.connect()
        } throws: { error in
            guard case GatewayError.authFailed(let failure) = error else { return false }
            return failure.code == .authTokenMismatch
        }
    }

    @Test func theGatewayClosingASocketEndsTheClientsConnection() async throws {
        let gateway = TestGateway.inMemory()
        defer { Task { await gateway.stop() } }
        let connection = try Harness.connection(url: gateway.url, transport: gateway.inMemoryTransport())
        let states = StateRecorder(connection)
        try await connection.connect()
        await gateway.rotateSharedAuth(to: .token("rotated"))
        let ended = await states.first { state in
            if case .disconnected = state { return true }
            return false
        }
        #expect(ended == .disconnected(.authChanged))
        #expect(await gateway.connectionCount() == 0)
    }
}
