import OpenClawTestGateway

/// Runs `body` against a fresh test gateway on an ephemeral loopback port, and always stops it.
public func withTestGateway<T>(
    _ configuration: TestGatewayConfiguration = TestGatewayConfiguration(),
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
