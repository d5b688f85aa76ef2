import OpenClawTestGateway

/// Runs `body` against a fresh gateway and always stops it.
func withGateway<T>(
    _ configuration: TestGatewayConfiguration = .init(),
    _ body: (TestGateway) async throws -> T
) async throws -> T {
    let gateway = try await TestGateway.start(configuration)
    do {
        let result = try await body(gateway)
        await gateway.stop()
        return result
    } catch {
        await gateway.stop()
        throw error
    }
}
