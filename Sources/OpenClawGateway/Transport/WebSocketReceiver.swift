import NIOCore
import NIOWebSocket

/// The end of a gateway socket's pipeline: whole messages (assembled by NIO's aggregator, bounded by
/// ``InboundGuard`` before it) go to the ``InboundQueue``; pongs count as activity; a close frame is
/// answered; the channel's end is the queue's last event.
final class WebSocketReceiver: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private let connection: LiveWebSocketConnection
    private let queue: InboundQueue
    private let maxMessageBytes: Int

    init(connection: LiveWebSocketConnection, queue: InboundQueue, maxMessageBytes: Int) {
        self.connection = connection
        self.queue = queue
        self.maxMessageBytes = maxMessageBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            guard admits(frame) else { return }
            queue.push(.text(String(buffer: frame.unmaskedData)))
        case .binary:
            guard admits(frame) else { return }
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

    /// The backstop behind ``InboundGuard``: nothing more is delivered once a message went over the limit.
    private func admits(_ frame: WebSocketFrame) -> Bool {
        guard !queue.oversized else { return false }
        guard frame.length <= maxMessageBytes else {
            queue.markOversized(limitBytes: maxMessageBytes)
            connection.closeTooLarge()
            return false
        }
        return true
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
