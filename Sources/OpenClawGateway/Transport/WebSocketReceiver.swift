import NIOCore
import NIOWebSocket

/// The end of a gateway socket's pipeline: whole messages (assembled by NIO's aggregator, bounded by
/// ``InboundGuard`` before it, which forwards nothing of a message over the limit nor after it) go to the
/// ``InboundQueue``; pongs count as activity; a close frame is answered; the channel's end is the queue's
/// last event.
final class WebSocketReceiver: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private let connection: LiveWebSocketConnection
    private let queue: InboundQueue

    init(connection: LiveWebSocketConnection, queue: InboundQueue) {
        self.connection = connection
        self.queue = queue
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            queue.push(.text(String(buffer: frame.unmaskedData)))
        case .binary:
            queue.push(.binary(Array(frame.unmaskedData.readableBytesView)))
        case .pong:
            queue.noteActivity()
        case .connectionClose:
            var payload = frame.unmaskedData
            connection.peerSentClose(code: payload.readInteger(as: UInt16.self).map(Int.init))
        default:
            break
        }
    }

    /// Reported on the loop's next turn: a protocol error closes the channel from inside its own error
    /// handling (NIO's handler before this one), and the error (an oversized frame, reported as such by
    /// ``InboundGuard``) must reach the queue before the plain end does.
    func channelInactive(context: ChannelHandlerContext) {
        let connection = connection
        context.eventLoop.execute { connection.channelEnded() }
        context.fireChannelInactive()
    }

    /// An I/O error (a reset connection) or a protocol error NIO's own handler already answered: the
    /// socket is lost, and the peer said nothing.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
