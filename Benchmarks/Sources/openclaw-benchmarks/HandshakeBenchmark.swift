import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// Scenario 1: WebSocket open → `connect.challenge` → signed `connect` → `hello-ok`, on loopback.
enum HandshakeBenchmark {
    @MainActor
    static func run(_ report: Report, settings: Settings) async throws {
        let samples = try await Harness.withGateway(protocolNumber: 4) { gateway in
            try await handshakes(on: gateway, settings: settings)
        }
        report.addLatency(
            "1", "handshake (open → hello-ok, Ed25519 signed)", samples, goal: .atMost(0.4, "ms"),
            note: "new socket each, same device")
    }

    @MainActor
    private static func handshakes(on gateway: TestGateway, settings: Settings) async throws -> Samples {
        // One device, as an app has: its key is made once; every connect signs a new challenge.
        let identityStore = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0))
        let tokenStore = InMemoryDeviceTokenStore()
        let clock = ContinuousClock()
        var samples = Samples()
        for index in 0..<(settings.handshakeWarmup + settings.handshakes) {
            let connection = try Harness.connection(to: gateway, identityStore: identityStore, tokenStore: tokenStore)
            let start = clock.now
            let session = try await connection.connect()
            let elapsed = clock.now - start
            guard session.protocolVersion.rawValue == 4 else {
                throw BenchmarkError.wrongResult("negotiated protocol \(session.protocolVersion.rawValue)")
            }
            await connection.disconnect()
            if index >= settings.handshakeWarmup { samples.append(elapsed) }
        }
        return samples
    }
}
