import OpenClawTestGateway

/// Runs `body` against a fresh test gateway on an ephemeral loopback port, and always stops it. The
/// body runs in the caller's isolation (main-actor tests can touch their view models in it).
public func withTestGateway<T>(
    _ configuration: TestGatewayConfiguration = TestGatewayConfiguration(),
    isolation: isolated (any Actor)? = #isolation,
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

/// Runs `body` against a fresh ``HostileGateway`` running `script`, and always stops it.
public func withHostileGateway<T>(
    _ script: HostileScript,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (HostileGateway) async throws -> T
) async throws -> T {
    let gateway = try await HostileGateway.start(script)
    do {
        let result = try await body(gateway)
        await gateway.stop()
        return result
    } catch {
        await gateway.stop()
        throw error
    }
}
