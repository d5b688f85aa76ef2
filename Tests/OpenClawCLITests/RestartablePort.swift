import OpenClawTestGateway

/// Gateways a test stops and starts again on the same port (the client keys its state by URL).
///
/// A port the kernel hands out for `bind(0)` comes from the ephemeral range, which every outgoing
/// connection of the tests running in parallel also draws from: once the first gateway stopped, one of
/// them could take the port before the restart ("Address already in use"). These ports come from below
/// that range, where nothing is assigned automatically.
enum RestartablePort {
    static func startFirst(
        _ configuration: TestGatewayConfiguration = TestGatewayConfiguration()
    ) async throws
        -> TestGateway
    {
        var attempt = 0
        while true {
            var candidate = configuration
            candidate.port = Int.random(in: 20_000..<32_000)
            do {
                return try await TestGateway.start(candidate)
            } catch  where attempt < 50 {
                attempt += 1
            }
        }
    }
}
