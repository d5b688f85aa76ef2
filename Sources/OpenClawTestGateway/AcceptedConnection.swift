import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket
import OpenClawTestGatewayCore

/// What an accepted TCP connection turned out to be once its first request was read: a WebSocket (the
/// gateway protocol) or plain HTTP (artifact downloads).
enum AcceptedConnection: Sendable {
    case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, origin: String?)
    /// Answered by ``ArtifactDownloads`` on the channel's event loop; done once the channel closes.
    case http(any Channel)

    /// Sets up an accepted channel: TLS if the gateway has a certificate, then HTTP/1.1 that upgrades
    /// any path to a WebSocket. The result completes once the first request has decided which.
    static func configure(
        _ channel: any Channel, tls: NIOSSLContext?, maxMessageSize: Int, hub: GatewayHub
    ) throws -> EventLoopFuture<AcceptedConnection> {
        let pipeline = channel.pipeline.syncOperations
        if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
        let webSocket = NIOTypedWebSocketServerUpgrader<AcceptedConnection>(
            maxFrameSize: maxMessageSize,
            enableAutomaticErrorHandling: true,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: Int.max,
                            maxAccumulatedFrameSize: maxMessageSize))
                    try pipeline.addHandler(WebSocketControlHandler())
                    let socket = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                        wrappingChannelSynchronously: channel)
                    return .webSocket(socket, origin: head.headers.first(name: "origin"))
                }
            })
        return try pipeline.configureUpgradableHTTPServerPipeline(
            configuration: .init(
                upgradeConfiguration: .init(
                    upgraders: [webSocket],
                    notUpgradingCompletionHandler: { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(ArtifactDownloads(hub: hub))
                            return .http(channel)
                        }
                    })))
    }
}
