import NIOCore
import NIOWebSocket

/// The WebSocket's control frames and protocol errors, handled on the event loop as RFC 6455 says and
/// as upstream's `ws` server does: a ping gets a pong with its data; a close gets a close back with the
/// peer's code (unless ours went first) and ends the connection; a reserved opcode, a reserved bit, a
/// malformed close or invalid UTF-8 in a text message closes with 1002 or 1007. Only text and binary
/// messages (already joined by the aggregator) go on to the session, and none after a close frame,
/// whichever side sent it; nothing is written after ours.
final class WebSocketControlHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long a close, ours or an answered one, waits before the connection is closed anyway: for the
    /// client's answer to ours, or for our write to a peer that stopped reading (it never completes).
    static let closeGrace: TimeAmount = .seconds(2)

    private var sentClose = false
    private var receivedClose = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            close(context, code: .protocolError)
            return
        }
        switch frame.opcode {
        case .text, .binary:
            guard !sentClose, !receivedClose else { return }
            if frame.opcode == .text, !Self.isValidUTF8(frame.unmaskedData) {
                close(context, code: .dataInconsistentWithMessage)
                return
            }
            context.fireChannelRead(data)
        case .ping:
            guard !sentClose else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            break
        case .connectionClose:
            receivedClose = true
            guard !sentClose else {
                context.close(promise: nil)
                return
            }
            close(context, code: Self.answer(toClosePayload: frame.unmaskedData))
        default:
            close(context, code: .protocolError)
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

    /// Joining fragments failed (too large, too many, out of order): the peer is told why and the
    /// connection ends. The frame decoder's own errors were answered by NIO's error handler below this
    /// one, with a close frame this handler did not see written: nothing more may follow it.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is NIOWebSocketError {
            sentClose = true
        } else if let failure = error as? NIOWebSocketFrameAggregator.Error {
            close(context, code: failure == .accumulatedFrameSizeIsTooLarge ? .messageTooLarge : .protocolError)
        } else {
            context.fireErrorCaught(error)
        }
    }

    /// The code to answer a close with: the peer's own, when it may be sent on the wire (RFC 6455
    /// §7.4); 1000 for a close without one; 1002 for a one-byte body or a code no endpoint may send; 1007
    /// for a reason that is not UTF-8.
    static func answer(toClosePayload payload: ByteBuffer) -> WebSocketErrorCode {
        guard payload.readableBytes > 0 else { return .normalClosure }
        var body = payload
        guard payload.readableBytes >= 2, let code = body.readInteger(as: UInt16.self) else { return .protocolError }
        let sendable = (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
        guard sendable else { return .protocolError }
        guard isValidUTF8(body) else { return .dataInconsistentWithMessage }
        return WebSocketErrorCode(codeNumber: Int(code))
    }

    static func isValidUTF8(_ buffer: ByteBuffer) -> Bool {
        var decoder = UTF8()
        var bytes = buffer.readableBytesView.makeIterator()
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !sentClose else { return }
        sentClose = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
        context.eventLoop.scheduleTask(in: Self.closeGrace) { channel.close(promise: nil) }
    }
}
