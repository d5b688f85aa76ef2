import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization
import WebSocketKit

/// Opens `wss://` sockets whose certificate is checked by fingerprint instead of the system trust store.
///
/// websocket-kit builds its TLS handler itself and takes no custom verification, so for these sockets
/// the pipeline is built here: NIOSSL with a custom verification callback, then the same HTTP upgrade
/// and the same `WebSocket` (websocket-kit's public `WebSocket.client(on:)`), so everything after the
/// upgrade is shared with ``WebSocketKitTransport``. The upgrade request is written only after the
/// certificate was accepted (NIOSSL holds writes until the handshake ends): the path and query never
/// reach an unverified peer. Like websocket-kit, no `Origin` header is sent.
enum PinnedTLSConnector {
    /// What the verification callback saw and decided, read once the connect attempt is over.
    final class Verdict: Sendable {
        private let state = Mutex<(certificate: TLSPeerCertificate?, failure: TLSTrustFailure?)>((nil, nil))

        var certificate: TLSPeerCertificate? { state.withLock { $0.certificate } }
        var failure: TLSTrustFailure? { state.withLock { $0.failure } }

        func record(_ certificate: TLSPeerCertificate?, failure: TLSTrustFailure?) {
            state.withLock { $0 = (certificate, failure) }
        }
    }

    /// How the leaf certificate is judged.
    enum Check: Sendable {
        /// The fingerprint rule of ``TLSTrust``.
        case fingerprint(pinned: TLSFingerprint?, expected: TLSFingerprint?, now: Date)
        /// Record the certificate and refuse it: used after the system refused it, to show what it was.
        case recordOnly
    }

    static func connect(
        url: GatewayURL,
        group: any EventLoopGroup,
        check: Check,
        verdict: Verdict,
        webSocket: WebSocket.Configuration,
        maxFrameSize: Int,
        onUpgrade: @escaping @Sendable (WebSocket) -> Void
    ) -> EventLoopFuture<Void> {
        let upgradePromise = group.any().makePromise(of: Void.self)
        let host = url.host
        let requestTarget = url.path + (url.query.map { "?\($0)" } ?? "")
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + (url.port == 443 ? "" : ":\(url.port)")
        let bootstrap = ClientTLS.bootstrap(on: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sslHandler = try ClientTLS.handler(host: host, check: check, verdict: verdict)
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(sslHandler)
                    let requestHandler = UpgradeRequestHandler(
                        target: requestTarget, hostHeader: hostHeader, upgradePromise: upgradePromise)
                    let upgrader = NIOWebSocketClientUpgrader(
                        maxFrameSize: maxFrameSize,
                        automaticErrorHandling: true,
                        upgradePipelineHandler: { channel, _ in
                            WebSocket.client(on: channel, config: webSocket, onUpgrade: onUpgrade)
                        }
                    )
                    let boundRequestHandler = NIOLoopBound(requestHandler, eventLoop: channel.eventLoop)
                    let upgrade: NIOHTTPClientUpgradeConfiguration = (
                        upgraders: [upgrader],
                        completionHandler: { context in
                            upgradePromise.succeed(())
                            context.pipeline.syncOperations.removeHandler(boundRequestHandler.value, promise: nil)
                        }
                    )
                    try operations.addHTTPClientHandlers(
                        leftOverBytesStrategy: .forwardBytes, withClientUpgrade: upgrade)
                    try operations.addHandler(requestHandler)
                }
            }
        let connected = bootstrap.connect(host: host, port: url.port)
        connected.cascadeFailure(to: upgradePromise)
        return connected.flatMap { _ in upgradePromise.futureResult }
    }
}

/// Sends the upgrade request once the channel is active, and fails the upgrade on any other answer.
private final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let target: String
    private let hostHeader: String
    private let upgradePromise: EventLoopPromise<Void>
    private var sent = false

    init(target: String, hostHeader: String, upgradePromise: EventLoopPromise<Void>) {
        self.target = target
        self.hostHeader = hostHeader
        self.upgradePromise = upgradePromise
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
        case .head(let head): upgradePromise.fail(WebSocketClient.Error.invalidResponseStatus(head))
        case .body: break
        case .end: context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        upgradePromise.fail(error)
        context.close(promise: nil)
    }

    /// A refused certificate may close the channel without an error reaching this handler.
    func channelInactive(context: ChannelHandlerContext) {
        upgradePromise.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }
}
