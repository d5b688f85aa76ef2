import Foundation
import OpenClawGateway
import OpenClawNode
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@Suite("Node reconnect")
struct NodeReconnectTests {
    /// The connection drops while a command runs: the node reconnects by itself, and the answer still
    /// reaches the gateway (sent after the new handshake if the socket was down when it was ready).
    @Test func anAnswerReadyWhileDisconnectedIsSentAfterReconnecting() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.full), reconnect: .standard)
            defer { Task { await fixture.stop() } }
            let started = fixture.directory + "/started"
            let invoke = Task {
                try? await fixture.invoke(
                    "system.run", ["command": ["sh", "-c", .string("touch \(started); sleep 0.3; echo done")]])
            }
            #expect(await eventually(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: started) })
            await gateway.dropAllConnections()
            _ = await invoke.value
            let delivered = await eventually(timeout: .seconds(15)) {
                await gateway.nodeInvokeResults().contains { $0["ok"]?.boolValue == true }
            }
            #expect(delivered)
            #expect(await gateway.connectedNodes() == [fixture.nodeId])
        }
    }
}
