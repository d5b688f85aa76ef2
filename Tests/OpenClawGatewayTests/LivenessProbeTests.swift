import OpenClawGateway
import OpenClawProtocol
import OpenClawTestSupport
import Testing

/// Silence is a question: a gateway that advertises a tick interval but never ticks keeps its socket
/// as long as it answers pings; one that stops answering is still detected.
@Suite("Liveness probe")
struct LivenessProbeTests {
    static let quiet = HostileScript.policy(tickIntervalMs: 250)

    @Test func aQuietGatewayThatAnswersPingsKeepsItsSocket() async throws {
        try await withHostileGateway(HostileScript(policy: Self.quiet, answersPings: true)) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let session = try await connection.connect()
            // Each ping is one silent interval answered: six of them is three times the old verdict.
            #expect(await gateway.waitFor { $0.pingsReceived >= 6 })
            #expect(await connection.state == .connected(session))
            #expect(gateway.observed.connections == 1)
            #expect(try await connection.request("health") != nil)
            await connection.disconnect()
        }
    }

    @Test func aGatewayThatStopsAnsweringIsDetected() async throws {
        try await withHostileGateway(HostileScript(policy: Self.quiet, answersPings: false)) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let states = StateRecorder(connection)
            try await connection.connect()
            let ended = await states.first(timeout: .seconds(20)) {
                if case .disconnected(.tickTimeout?) = $0 { return true }
                return false
            }
            #expect(ended == .disconnected(.tickTimeout(silenceMs: 500)))
            #expect(gateway.observed.pingsReceived >= 1, "asked before deciding")
        }
    }
}
