import NIOCore
import NIOWebSocket

/// The first look at every frame a gateway sends, before NIO's aggregator assembles messages: what a
/// hostile or broken peer controls is bounded here.
///
/// - **Message size.** NIO's frame decoder refuses a frame over the limit from its header, before
///   buffering it (`NIOWebSocketError.invalidFrameLength`, caught here); the aggregator's own limits
///   are backstops set at twice these (an unbounded aggregator took 3 GB for a 1.5 GB message in small
///   frames), so fragments are counted and summed here. Over the limit the socket closes
///   with 1009, the reader is told at once (``InboundQueue/markOversized(limitBytes:)``), and nothing
///   more is passed on — not the rest of the message, and not the messages after it: a reply must not
///   go on without the part that was too large.
/// - **Pings.** Answering every ping with a pong makes a flood of pings a flood of writes (200,000
///   pings: 15 s, 9 s of CPU). Here at most one pong goes out per interval, answering the latest ping;
///   the others are counted and dropped.
/// - **Reading.** While the reader's buffer is over its high-water mark the socket is not read
///   (`read` is held back), which is how backpressure reaches the gateway.
/// - **Close reasons.** The reason text of the peer's close frame is recorded here.
final class InboundGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Most fragments one message may arrive in (a 25 MiB message in 4 KiB fragments is 6,400).
    static let maxFragments = 65_536
    /// At most one pong per this interval.
    static let pongInterval = TimeAmount.seconds(1)

    private let maxMessageBytes: Int
    private let queue: InboundQueue
    private let closeTooLarge: @Sendable () -> Void
    private var context: ChannelHandlerContext?
    private var messageBytes = 0
    private var messageFragments = 0
    /// Set for good once a message went over the limit: the connection is ending.
    private var overLimit = false
    private var readHeld = false
    private var lastPong: NIODeadline?
    private var pendingPong: ByteBuffer?
    private var pongScheduled = false

    init(maxMessageBytes: Int, queue: InboundQueue, closeTooLarge: @escaping @Sendable () -> Void) {
        self.maxMessageBytes = maxMessageBytes
        self.queue = queue
        self.closeTooLarge = closeTooLarge
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .ping where frame.fin:
            answerPing(frame.unmaskedData, context: context)
        case .text, .binary:
            messageBytes = frame.length
            messageFragments = 1
            forwardMessageFrame(data, context: context)
        case .continuation:
            messageBytes += frame.length
            messageFragments += 1
            forwardMessageFrame(data, context: context)
        case .connectionClose:
            var payload = frame.unmaskedData
            let code = payload.readInteger(as: UInt16.self).map(Int.init)
            let text = payload.readString(length: payload.readableBytes)
            queue.notePeerClose(code: code, reason: DisconnectReason.sanitizedCloseReason(text))
            context.fireChannelRead(data)
        default:
            queue.noteActivity()
            context.fireChannelRead(data)
        }
    }

    private func forwardMessageFrame(_ data: NIOAny, context: ChannelHandlerContext) {
        guard !overLimit else { return }
        if messageBytes > maxMessageBytes || messageFragments > Self.maxFragments {
            overLimit = true
            queue.markOversized(limitBytes: maxMessageBytes)
            closeTooLarge()
            return
        }
        context.fireChannelRead(data)
    }

    /// NIO's decoder refused a frame longer than the limit (its protocol error handler, before this
    /// one, answers 1009 and closes): reported as the gateway's oversized message, not a drop.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOWebSocketError, error == .invalidFrameLength {
            overLimit = true
            queue.markOversized(limitBytes: maxMessageBytes)
        }
        context.fireErrorCaught(error)
    }

    private func answerPing(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        guard let last = lastPong, now - last < Self.pongInterval else {
            // This answer replaces one still waiting for its turn: a loop busy with a flood can run this
            // ping before the timer, which must then find nothing to send (two pongs at once otherwise).
            pendingPong = nil
            queue.notePing(answered: true)
            writePong(payload, context: context)
            return
        }
        queue.notePing(answered: false)
        pendingPong = payload
        guard !pongScheduled else { return }
        pongScheduled = true
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(deadline: last + Self.pongInterval) {
            bound.value.sendPendingPong()
        }
    }

    private func sendPendingPong() {
        pongScheduled = false
        guard let context, let payload = pendingPong else { return }
        pendingPong = nil
        queue.notePongSent()
        writePong(payload, context: context)
    }

    private func writePong(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        lastPong = .now()
        let frame = WebSocketFrame(fin: true, opcode: .pong, maskKey: MaskKeys.next(), data: payload)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if queue.isPaused {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// The reader caught up: read again if a read was held back.
    func resumeReading() {
        guard readHeld, let context else { return }
        readHeld = false
        context.read()
    }
}
