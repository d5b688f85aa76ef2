import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import OpenClawProtocol

/// The raw client's socket on SwiftNIO, written for the tests alone (not the connection engine's
/// transport): it can send what a browser sends (`Origin`) and what a broken client sends (any frame).
/// Messages go to the ``Inbox`` on the event loop, in arrival order; so does how the socket ended.
struct RawWebSocket: Sendable {
    let channel: any Channel

    /// Opens `url` (`ws://host:port[/path]`) and completes the upgrade, or throws ``ClientTimeout``.
    static func connect(to url: String, origin: String?, timeout: Duration, inbox: Inbox) async throws -> RawWebSocket {
        guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else {
            throw ClientTimeout(waitingFor: "a ws:// URL with a port, not \(url)")
        }
        let target = parsed.path.isEmpty ? "/" : parsed.path
        let group = MultiThreadedEventLoopGroup.singleton
        let upgraded = group.any().makePromise(of: Void.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(timeAmount(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOWebSocketClientUpgrader(
                        requestKey: Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
                        maxFrameSize: GatewayLimits.defaultMaxPayloadBytes,
                        automaticErrorHandling: true,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: Int.max,
                                        maxAccumulatedFrameSize: GatewayLimits.defaultMaxPayloadBytes))
                                try channel.pipeline.syncOperations.addHandler(RawFrameHandler(inbox: inbox))
                                upgraded.succeed()
                            }
                        })
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        leftOverBytesStrategy: .forwardBytes,
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "\(host):\(port)")
                    if let origin { headers.add(name: "Origin", value: origin) }
                    try channel.pipeline.syncOperations.addHandler(
                        RawUpgradeRequest(
                            head: HTTPRequestHead(
                                version: .http1_1, method: .GET, uri: target, headers: headers)))
                }
            }
        let channel = try await bootstrap.connect(host: host, port: port).get()
        channel.closeFuture.whenComplete { _ in upgraded.fail(ClientTimeout(waitingFor: "the upgrade")) }
        let deadline = channel.eventLoop.scheduleTask(in: timeAmount(timeout)) {
            upgraded.fail(ClientTimeout(waitingFor: "the upgrade"))
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        try await upgraded.futureResult.get()
        return RawWebSocket(channel: channel)
    }

    func send(_ opcode: WebSocketOpcode, _ bytes: [UInt8], fin: Bool = true) async throws {
        let frame = WebSocketFrame(
            fin: fin, opcode: opcode, maskKey: .random(), data: channel.allocator.buffer(bytes: bytes))
        try await channel.writeAndFlush(frame)
    }

    /// Sends a close frame with `code`; the server's answer ends the socket.
    func close(code: WebSocketErrorCode) async throws {
        var data = channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        try await channel.writeAndFlush(
            WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data))
    }
}

/// Writes the upgrade request once the channel is active.
private final class RawUpgradeRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let head: HTTPRequestHead

    init(head: HTTPRequestHead) { self.head = head }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }
}

/// Text and binary messages into the inbox (parsed as JSON where they are); a ping answered; the
/// server's close code kept and its close answered; the socket's end recorded.
private final class RawFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let inbox: Inbox
    private var closeCode: Int?

    init(inbox: Inbox) { self.inbox = inbox }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        var payload = frame.unmaskedData
        switch frame.opcode {
        case .text, .binary:
            let bytes = Array(payload.readableBytesView)
            inbox.append((try? JSONParser().parse(bytes)) ?? .string(String(decoding: bytes, as: UTF8.self)))
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: payload)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            closeCode = payload.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) }
            let answer = WebSocketFrame(
                fin: true, opcode: .connectionClose, maskKey: .random(), data: frame.unmaskedData)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
        case .pong:
            inbox.appendPong(Array(payload.readableBytesView))
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.markClosed(code: closeCode)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// `duration` for NIO, to the nanosecond.
func timeAmount(_ duration: Duration) -> TimeAmount {
    .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
}
