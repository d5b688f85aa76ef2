import OpenClawGateway
import OpenClawProtocol
import OpenClawTestSupport
import Testing

/// Silence is a question: a gateway that advertises a tick interval but never ticks keeps its socket
/// as long as it answers pings; one that stops answering is still detected.
@Suite("Liveness probe")
struct LivenessProbeTests {
    // Long enough that a loaded 2-core machine answers a ping within one interval (1.5 s was seen to
    // miss once with the whole suite running in parallel).
    static let tickIntervalMs = 3_000
    static let quiet = HostileScript.policy(tickIntervalMs: tickIntervalMs)

    @Test func aQuietGatewayThatAnswersPingsKeepsItsSocket() async throws {
        try await withHostileGateway(HostileScript(policy: Self.quiet, answersPings: true)) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let session = try await connection.connect()
            // Each ping is one silent interval answered: four of them is twice the old verdict.
            #expect(await gateway.waitFor { $0.pingsReceived >= 4 })
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
            #expect(ended == .disconnected(.tickTimeout(silenceMs: 2 * Self.tickIntervalMs)))
            #expect(gateway.observed.pingsReceived >= 1, "asked before deciding")
        }
    }
}
