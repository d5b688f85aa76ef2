import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
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
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let connectionNumbers = ConnectionNumbers()
        let maxMessageSize = configuration.maxPayload
        let router = Router()
        ArtifactRoute.add(to: router, hub: hub)
        let webSocketServer = HTTPServerBuilder.http1WebSocketUpgrade(
            configuration: .init(ws: .init(maxFrameSize: maxMessageSize, autoPing: .disabled))
        ) { request, channel, _ in
            let origin = request.headerFields.first { $0.name.canonicalName == "origin" }?.value
            let handle = ConnectionHandle(
                id: connectionNumbers.next(), origin: origin, socket: ChannelGatewaySocket(channel: channel))
            return .upgrade([:]) { inbound, outbound, _ in
                await SocketSession.serve(
                    inbound: inbound, outbound: outbound, handle: handle, hub: hub, maxMessageSize: maxMessageSize
                )
            }
        }
        let certificate = try configuration.tls.map(TestGatewayCertificate.init)
        let server =
            try certificate.map { try HTTPServerBuilder.tls(webSocketServer, tlsConfiguration: $0.serverConfiguration) }
            ?? webSocketServer
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let serverTask = Task {
            defer { portContinuation.finish() }
            try await app.run()
        }
        for await port in ports {
            return TestGateway(
                port: port, configuration: configuration, tlsFingerprint: certificate?.fingerprint, hub: hub,
                connectionNumbers: connectionNumbers, listener: ServerListener(serverTask: serverTask))
        }
        do {
            try await serverTask.value
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw TestGatewayError.portInUse(host: configuration.host, port: configuration.port)
        }
        throw TestGatewayError.notStarted
    }
}

/// The Hummingbird server's task, as the gateway's listener.
struct ServerListener: GatewayListener {
    let serverTask: Task<Void, any Error>

    var isNetworked: Bool { true }

    func serve() async -> Result<Void, any Error> {
        await withTaskCancellationHandler {
            await serverTask.result
        } onCancel: { [serverTask] in
            serverTask.cancel()
        }
    }

    /// How long a stop waits for the server to finish. Hummingbird shuts down gracefully, waiting for
    /// open connections to end; the hub has dropped its own sockets by then, but a client that never
    /// completed its upgrade would hold that wait, and a test run with it, for ever.
    static let shutdownGrace: Duration = .seconds(5)

    func stop() async {
        serverTask.cancel()
        _ = await firstOf(
            timeout: Self.shutdownGrace,
            operation: { [serverTask] in Result<Void, Never>.success(_ = await serverTask.result) },
            onLateSuccess: { _ in })
    }

    func cancel() { serverTask.cancel() }
}
