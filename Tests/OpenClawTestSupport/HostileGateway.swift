import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import OpenClawProtocol
import Synchronization

/// A gateway that completes a valid handshake and then misbehaves as scripted: a real WebSocket
/// server on 127.0.0.1 (ephemeral port, raw SwiftNIO, so it controls every frame: fragments, pings,
/// close codes), for tests of what a hostile or broken gateway, or anyone in the middle of a `ws://`
/// connection, can do to a client.
///
/// ```swift
/// let gateway = try await HostileGateway.start(HostileScript(afterHello: [.pings(count: 200_000)]))
/// // connect a client (in process, or a CLI subprocess) to gateway.url …
/// await gateway.stop()
/// ```
/// Every socket runs the same script. ``observed`` says what the clients did.
public final class HostileGateway: Sendable {
    /// What clients did, as seen by the gateway.
    public struct Observed: Sendable, Equatable {
        public var connections = 0
        public var handshakes = 0
        /// Methods of the requests received after `connect`, in order.
        public var requests: [String] = []
        public var pingsReceived = 0
        public var pongsReceived = 0
        /// Scripts (``HostileScript/afterHello`` or ``HostileScript/onChatSend``) written to the end.
        public var scriptsCompleted = 0
        /// Frames written, handshake included.
        public var framesWritten = 0
        /// Close codes clients sent.
        public var clientCloseCodes: [Int] = []
        /// Sockets closed (by either side).
        public var socketsClosed = 0
    }

    public let port: Int
    public let script: HostileScript
    let observations = Mutex(Observed())
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    public var url: String { "ws://127.0.0.1:\(port)" }

    /// What clients did so far.
    public var observed: Observed { observations.withLock { $0 } }

    private init(port: Int, script: HostileScript, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.port = port
        self.script = script
        self.group = group
        self.channel = channel
    }

    /// Binds an ephemeral port on 127.0.0.1 and starts serving. Its own event loop thread, so a flood
    /// it writes never competes with the client's event loop for the same thread.
    public static func start(_ script: HostileScript = HostileScript()) async throws -> HostileGateway {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = ObservationsBox()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 20,
                        automaticErrorHandling: true,
                        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                let handler = HostileSocketHandler(script: script, record: box.record)
                                try channel.pipeline.syncOperations.addHandler(handler)
                            }
                        }
                    )
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
                    )
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        let gateway = HostileGateway(
            port: channel.localAddress?.port ?? 0, script: script, group: group, channel: channel)
        box.attach(gateway)
        return gateway
    }

    /// Closes the listener and every socket.
    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// Waits (polling, generous timeout) until `condition` holds for what clients did.
    public func waitFor(
        timeout: Duration = .seconds(20), _ condition: @Sendable (Observed) -> Bool
    ) async -> Bool {
        await eventually(timeout: timeout) { condition(observed) }
    }
}

/// Lets the per-socket handlers record into a gateway created after the bootstrap that makes them.
final class ObservationsBox: Sendable {
    private let gateway = Mutex<HostileGateway?>(nil)

    func attach(_ gateway: HostileGateway) { self.gateway.withLock { $0 = gateway } }

    var record: @Sendable ((inout HostileGateway.Observed) -> Void) -> Void {
        { [self] change in
            guard let gateway = gateway.withLock({ $0 }) else { return }
            gateway.observations.withLock { change(&$0) }
        }
    }
}
