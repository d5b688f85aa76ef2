import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// Hostile frames from the gateway side of a real socket (issue 6 §4): the connection survives them
/// and stays usable, or ends with a reason; never a crash or a hang.
@Suite("Hostile frames over a real socket")
struct HostileFramesTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func mutatedFramesLeaveTheConnectionUsable(seed: UInt64) async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(protocolNumber: 4))
        let connection = try Harness.connection(to: gateway)
        let recorder = EventRecorder(connection)
        try await connection.connect()

        var mutator = FrameMutator(seed: seed)
        for _ in 0..<300 {
            await gateway.sendRaw(String(decoding: mutator.next(), as: UTF8.self))
        }
        // Whatever the frames did, the connection answers requests or has said why it ended.
        switch await connection.state {
        case .connected:
            let health = try await connection.request("health", timeout: .seconds(10))
            #expect(health != nil)
        case .disconnected(let reason):
            #expect(reason != nil)
        case let other:
            Issue.record("unexpected state after hostile frames: \(other)")
        }
        let malformed = recorder.events.count { event in
            if case .malformedFrame = event { return true }
            return false
        }
        #expect(malformed > 0, "broken frames must be surfaced as malformed")
        await connection.disconnect()
        await gateway.stop()
    }
}
