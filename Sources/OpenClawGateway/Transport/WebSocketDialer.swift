import NIOCore
import NIOWebSocket
import Synchronization

/// Opens a gateway's WebSocket on SwiftNIO: TCP, then TLS for `wss://` (`ClientTLS`: the system trust
/// store, or the fingerprint check of a pinned gateway), then the HTTP/1.1 upgrade
/// (``WebSocketUpgradeHandler``, whose rules are ``WebSocketHandshake``), then the frame handlers of
/// ``LiveWebSocketConnection``.
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
        let handshake = WebSocketHandshake.random()
        let request: String
        do {
            request = try handshake.request(target: requestTarget, hostHeader: hostHeader)
        } catch {
            upgraded.fail(error)
            return (group.any().makeFailedFuture(error), upgraded)
        }
        let bootstrap = ClientTLS.bootstrap(on: group)
            .connectTimeout(options.timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    if url.isSecure {
                        try operations.addHandler(
                            ClientTLS.handler(host: host, check: options.check, verdict: options.verdict))
                    }
                    let upgrade = WebSocketUpgradeHandler(
                        handshake: handshake, request: request, maxFrameSize: frameLimit,
                        opened: { channel in
                            let connection = try LiveWebSocketConnection.install(
                                on: channel, queue: queue, maxMessageBytes: options.maxMessageBytes)
                            settled.set()
                            upgraded.succeed(connection)
                        },
                        failed: { upgraded.fail($0) }
                    )
                    try operations.addHandler(upgrade)
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
