import Logging
import NIOCore
import NIOPosix
import NIOSSL
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGatewayCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TestGateway {
    /// Binds, starts serving and returns once the port is known.
    public static func start(
        _ configuration: TestGatewayConfiguration = .init(),
        logger: Logger = Logger(label: "openclaw.test-gateway", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> TestGateway {
        let hub = GatewayHub(configuration: configuration, logger: logger)
        let connectionNumbers = ConnectionNumbers()
        let certificate = try configuration.tls.map(TestGatewayCertificate.init)
        let tls = try certificate.map { try NIOSSLContext(configuration: $0.serverConfiguration) }
        let server: GatewayServer
        do {
            server = try await GatewayServer.start(
                host: configuration.host, port: configuration.port, tls: tls,
                maxMessageSize: configuration.maxPayload, hub: hub, connectionNumbers: connectionNumbers)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw TestGatewayError.portInUse(host: configuration.host, port: configuration.port)
        }
        return TestGateway(
            port: server.port, configuration: configuration, tlsFingerprint: certificate?.fingerprint, hub: hub,
            connectionNumbers: connectionNumbers, listener: server)
    }
}
