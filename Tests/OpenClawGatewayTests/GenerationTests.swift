import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawGateway

/// After a reconnect, whatever was still under way for the old socket (a frame read late, its close,
/// its liveness verdict, a reconnect wait that was replaced) must not touch the new one.
@Suite("Generations: the past cannot disturb a new socket")
struct GenerationTests {
    @Test func lateWorkForAnOldSocketIsIgnored() async throws {
        try await withTestGateway { gateway in
            let policy = ReconnectPolicy(initialDelay: .milliseconds(20), maxDelay: .milliseconds(50), jitter: .none)
            let connection = try Harness.connection(to: gateway, reconnect: policy)
            let states = StateRecorder(connection)
            let first = try await connection.connect()
            let staleEpoch = await connection.reconnectEpoch

            await gateway.dropAllConnections()
            let generation = first.generation
            let second = try #require(await states.first { ($0.session?.generation ?? 0) > generation }?.session)
            let events = EventRecorder(connection)
            let mark = states.entries.count

            // Delivered as the old socket's reader, liveness watch and reconnect timer would.
            let lateShutdown = #"{"type":"event","event":"shutdown","payload":{"reason":"late"},"seq":99}"#
            _ = await connection.receive([.text(lateShutdown)], generation: first.generation)
            _ = await connection.receive(
                [.closed(code: GatewayCloseCode.serviceRestart)], generation: first.generation)
            await connection.teardown(
                reason: .tickTimeout(silenceMs: 1), closeCode: GatewayCloseCode.tickTimeout,
                generation: first.generation)
            #expect(await !connection.isSilent(longerThan: .zero, generation: first.generation))
            await connection.reconnectTimerFired(epoch: staleEpoch)

            #expect(await connection.state == .connected(second))
            #expect(try await connection.request("health") != nil)
            #expect(await gateway.connectionCount() == 1)
            #expect(states.entries.count == mark)
            #expect(
                !events.contains { event in
                    switch event {
                    // The new socket's own `connected` may reach a subscriber after its state did (seen
                    // once under load); anything of the old socket may not.
                    case .connected(let session): return session.generation != second.generation
                    case .disconnected: return true
                    case .event(let frame): return frame.event == GatewayEventName.shutdown
                    default: return false
                    }
                })
            await connection.disconnect()
        }
    }
}
