import NIOCore
import NIOPosix
import NIOSSL
import OpenClawGateway
import OpenClawTestGatewayCore

/// The hub on a real socket: a SwiftNIO server that accepts connections, upgrades them to WebSockets
/// (or answers artifact downloads over plain HTTP), and serves each in a child of one task group, so
/// stopping the server ends every connection it accepted.
final class GatewayServer: GatewayListener {
    let port: Int
    private let serverChannel: any Channel
    private let children: ChildChannels
    private let acceptLoop: Task<Void, any Error>

    private init(port: Int, serverChannel: any Channel, children: ChildChannels, acceptLoop: Task<Void, any Error>) {
        self.port = port
        self.serverChannel = serverChannel
        self.children = children
        self.acceptLoop = acceptLoop
    }

    /// Binds `host:port` (0 for an ephemeral port) and starts accepting.
    static func start(
        host: String, port: Int, tls: NIOSSLContext?, maxMessageSize: Int, hub: GatewayHub,
        connectionNumbers: ConnectionNumbers
    ) async throws -> GatewayServer {
        let children = ChildChannels()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                children.track(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try AcceptedConnection.configure(channel, tls: tls, maxMessageSize: maxMessageSize, hub: hub)
                }
            }
        let serverChannel = server.channel
        // Unstructured: the server outlives `start`, which returns once the port is known; `stop` and
        // `cancel` end it, and with it every connection's child task.
        let acceptLoop = Task {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { accepted in
                    for try await connection in accepted {
                        group.addTask {
                            await serve(connection, hub: hub, connectionNumbers: connectionNumbers)
                        }
                    }
                }
            }
        }
        return GatewayServer(
            port: serverChannel.localAddress?.port ?? port, serverChannel: serverChannel, children: children,
            acceptLoop: acceptLoop)
    }

    private static func serve(
        _ connection: EventLoopFuture<AcceptedConnection>, hub: GatewayHub, connectionNumbers: ConnectionNumbers
    ) async {
        // Fails when the peer left (or failed TLS) before its first request was read.
        guard let accepted = try? await connection.get() else { return }
        switch accepted {
        case .webSocket(let socket, let origin):
            let handle = ConnectionHandle(
                id: connectionNumbers.next(), origin: origin, socket: ChannelGatewaySocket(channel: socket.channel))
            await SocketSession.serve(socket, handle: handle, hub: hub)
        case .http(let channel):
            try? await channel.closeFuture.get()
        }
    }

    // MARK: GatewayListener

    var isNetworked: Bool { true }

    func serve() async -> Result<Void, any Error> {
        await withTaskCancellationHandler {
            await acceptLoop.result
        } onCancel: {
            cancel()
        }
    }

    /// How long a stop waits for the accept loop to end once every socket was told to close.
    static let shutdownGrace: Duration = .seconds(5)

    func stop() async {
        cancel()
        _ = await firstOf(
            timeout: Self.shutdownGrace,
            operation: { [acceptLoop] in Result<Void, Never>.success(_ = await acceptLoop.result) },
            onLateSuccess: { _ in })
    }

    func cancel() {
        serverChannel.close(promise: nil)
        children.closeAll()
        acceptLoop.cancel()
    }
}
