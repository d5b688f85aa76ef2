import NIOCore
import NIOWebSocket

/// The WebSocket's control frames, answered on the event loop as RFC 6455 says (§5.5): a ping gets a pong
/// with its data; a close gets a close back (unless ours went first) and ends the connection. Only text
/// and binary messages (already joined by the aggregator) go on to the session; nothing is written after
/// a close frame, whichever side sent it.
final class WebSocketControlHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var sentClose = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            context.fireChannelRead(data)
        case .ping:
            guard !sentClose else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            guard !sentClose else {
                context.close(promise: nil)
                return
            }
            var answer = frame.unmaskedData
            let code = answer.readWebSocketErrorCode() ?? .normalClosure
            close(context, code: code)
        default:
            break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        guard !sentClose else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        if frame.opcode == .connectionClose { sentClose = true }
        context.write(data, promise: promise)
    }

    /// Joining fragments failed (too large, too many, out of order): the peer is told why, as the frame
    /// decoder's own errors are, and the connection ends.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let failure = error as? NIOWebSocketFrameAggregator.Error else {
            context.fireErrorCaught(error)
            return
        }
        close(context, code: failure == .accumulatedFrameSizeIsTooLarge ? .messageTooLarge : .protocolError)
    }

    private func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !sentClose else { return }
        sentClose = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }
}
