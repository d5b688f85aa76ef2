import NIOCore
import NIOHTTP1
import NIOWebSocket
import Synchronization

/// Opens a gateway's WebSocket on SwiftNIO: TCP, then TLS for `wss://` (`ClientTLS`: the system trust
/// store, or the fingerprint check of a pinned gateway), then the HTTP/1.1 upgrade, then the frame
/// handlers of ``LiveWebSocketConnection``.
///
/// The upgrade request carries the Host and the upgrade's own headers only. No `Origin`: a gateway that
/// sees one treats the client as a browser. It is written once the channel is active, which for `wss://`
/// is after the certificate was accepted (NIOSSL holds writes until its handshake ends), so the path and
/// query never reach an unverified peer.
enum WebSocketDialer {
    /// What one connect attempt needs besides the address.
    struct Options: Sendable {
        /// The largest inbound message, and so the largest frame NIO's decoder accepts.
        var maxMessageBytes: Int
        /// The fingerprint check; nil trusts the system store (only read for `wss://`).
        var check: TLSVerification.Check?
        var verdict: TLSVerification.Verdict
        /// For the whole opening: TCP, TLS and the upgrade. A server that accepts and then says nothing
        /// (or answers the upgrade a byte at a time) is given up on, and its socket closed.
        var timeout: TimeAmount = .seconds(10)
    }

    /// The socket once upgraded, its inbound messages going to `queue`. Cancelled (a connect attempt past
    /// its deadline), the socket under way is closed: a server that accepts and never answers the upgrade
    /// does not keep one open per attempt.
    static func connect(
        url: GatewayURL, group: any EventLoopGroup, options: Options, queue: InboundQueue
    ) async throws -> LiveWebSocketConnection {
        let (connected, upgraded) = start(url: url, group: group, options: options, queue: queue)
        return try await withTaskCancellationHandler {
            try await upgraded.futureResult.get()
        } onCancel: {
            upgraded.fail(CancellationError())
            connected.whenSuccess { $0.close(promise: nil) }
        }
    }

    private static func start(
        url: GatewayURL, group: any EventLoopGroup, options: Options, queue: InboundQueue
    ) -> (connected: EventLoopFuture<any Channel>, upgraded: EventLoopPromise<LiveWebSocketConnection>) {
        let upgraded = group.any().makePromise(of: LiveWebSocketConnection.self)
        let host = url.host
        let requestTarget = url.path + (url.query.map { "?\($0)" } ?? "")
        let defaultPort = url.isSecure ? 443 : 80
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + (url.port == defaultPort ? "" : ":\(url.port)")
        // NIO's decoder refuses a frame over the limit from its header, before buffering its payload.
        let frameLimit = Int(min(Int64(UInt32.max), Int64(options.maxMessageBytes)))
        // Set on the socket's event loop, where the deadline is checked: a socket handed over is not closed.
        let settled = SettledFlag()
        let bootstrap = ClientTLS.bootstrap(on: group)
            .connectTimeout(options.timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    if url.isSecure {
                        try operations.addHandler(
                            ClientTLS.handler(host: host, check: options.check, verdict: options.verdict))
                    }
                    let requestHandler = UpgradeRequestHandler(
                        target: requestTarget, hostHeader: hostHeader, upgraded: upgraded)
                    let upgrader = NIOWebSocketClientUpgrader(
                        maxFrameSize: frameLimit,
                        automaticErrorHandling: true,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                do {
                                    let connection = try LiveWebSocketConnection.install(
                                        on: channel, queue: queue, maxMessageBytes: options.maxMessageBytes)
                                    settled.set()
                                    upgraded.succeed(connection)
                                } catch {
                                    // NIO's upgrade handler drops this failure: the caller learns it here.
                                    upgraded.fail(error)
                                    channel.close(promise: nil)
                                    throw error
                                }
                            }
                        }
                    )
                    let boundRequestHandler = NIOLoopBound(requestHandler, eventLoop: channel.eventLoop)
                    let upgrade: NIOHTTPClientUpgradeConfiguration = (
                        upgraders: [upgrader],
                        completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(boundRequestHandler.value, promise: nil)
                        }
                    )
                    try operations.addHTTPClientHandlers(
                        leftOverBytesStrategy: .forwardBytes, withClientUpgrade: upgrade)
                    try operations.addHandler(requestHandler)
                }
            }
        let connected = bootstrap.connect(addressOrName: host, port: url.port)
        connected.cascadeFailure(to: upgraded)
        connected.whenSuccess { channel in
            let deadline = channel.eventLoop.scheduleTask(in: options.timeout) {
                guard !settled.isSet else { return }
                upgraded.fail(ChannelError.connectTimeout(options.timeout))
                channel.close(promise: nil)
            }
            upgraded.futureResult.whenComplete { _ in deadline.cancel() }
        }
        return (connected, upgraded)
    }
}

/// Whether the socket was handed over; read by the opening's deadline.
private final class SettledFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}

/// The server answered the upgrade request with something other than `101 Switching Protocols`.
struct UpgradeRefused: Error {
    let status: Int
}

/// Sends the upgrade request once the channel is active, and fails the upgrade on any other answer.
private final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let target: String
    private let hostHeader: String
    private let upgraded: EventLoopPromise<LiveWebSocketConnection>
    private var sent = false

    init(target: String, hostHeader: String, upgraded: EventLoopPromise<LiveWebSocketConnection>) {
        self.target = target
        self.hostHeader = hostHeader
        self.upgraded = upgraded
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { send(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
        context.fireChannelActive()
    }

    private func send(context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A successful upgrade never gets here: the upgrade handler consumes the 101 response.
        switch unwrapInboundIn(data) {
        case .head(let head):
            upgraded.fail(UpgradeRefused(status: Int(head.status.code)))
            // Its body is of no use, and a hostile server could trickle a huge one to hold the socket.
            context.close(promise: nil)
        case .body: break
        case .end: context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        upgraded.fail(error)
        context.close(promise: nil)
    }

    /// A refused certificate may close the channel without an error reaching this handler.
    func channelInactive(context: ChannelHandlerContext) {
        upgraded.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }
}
