import NIOCore
import NIOWebSocket

/// Opens the WebSocket on a connected socket: writes the upgrade request once the channel is active,
/// reads the answer's head (at most ``WebSocketHandshake/maxAnswerHeadBytes``), and on a WebSocket
/// answer puts SwiftNIO's frame codec in its own place, handing it what came after the head (a gateway's
/// challenge can share the answer's packet).
///
/// `wss://` puts the TLS handler in front of this one, and NIOSSL holds writes until its handshake ends,
/// so the path and query never reach an unverified peer.
final class WebSocketUpgradeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case waitingForActive
        /// The request is out; what has come of the answer so far, and how much of it was searched.
        case readingAnswer(received: ByteBuffer?, searched: Int)
        case finished
    }

    private let handshake: WebSocketHandshake
    private let request: String
    private let maxFrameSize: Int
    /// Adds the frame handlers behind the codec and hands the socket over.
    private let opened: (any Channel) throws -> Void
    private let failed: (any Error) -> Void
    private var state = State.waitingForActive

    init(
        handshake: WebSocketHandshake, request: String, maxFrameSize: Int,
        opened: @escaping (any Channel) throws -> Void, failed: @escaping (any Error) -> Void
    ) {
        self.handshake = handshake
        self.request = request
        self.maxFrameSize = maxFrameSize
        self.opened = opened
        self.failed = failed
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendRequest(context: context)
        context.fireChannelActive()
    }

    private func sendRequest(context: ChannelHandlerContext) {
        guard case .waitingForActive = state else { return }
        state = .readingAnswer(received: nil, searched: 0)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .readingAnswer(let received, let searched) = state else { return }
        var bytes = unwrapInboundIn(data)
        if var received {
            // Out of the state first, or appending would copy the whole answer so far on every read.
            state = .readingAnswer(received: nil, searched: searched)
            received.writeImmutableBuffer(bytes)
            bytes = received
        }
        // An SSH banner or a TLS alert is told apart at its first bytes, not at a blank line that never comes.
        guard bytes.withUnsafeReadableBytes(WebSocketHandshake.mayBeHTTPAnswer) else {
            return fail(WebSocketUpgradeFailure.malformedAnswer, context: context)
        }
        let headLength = bytes.withUnsafeReadableBytes { WebSocketHandshake.headLength(in: $0, from: searched) }
        guard let headLength, headLength <= WebSocketHandshake.maxAnswerHeadBytes else {
            guard bytes.readableBytes <= WebSocketHandshake.maxAnswerHeadBytes else {
                return fail(WebSocketUpgradeFailure.answerTooLarge, context: context)
            }
            state = .readingAnswer(received: bytes, searched: bytes.readableBytes)
            return
        }
        do {
            try bytes.withUnsafeReadableBytes { head in
                try handshake.check(answerHead: UnsafeRawBufferPointer(rebasing: head[..<headLength]))
            }
            bytes.moveReaderIndex(forwardBy: headLength)
            try open(context: context, rest: bytes)
        } catch {
            fail(error, context: context)
        }
    }

    /// Puts the frame codec after this handler (with the protocol-error handler NIO's upgrader adds: a
    /// malformed or oversized frame gets a close frame with its code), lets the connection add its own behind them,
    /// then hands over the bytes after the head and leaves.
    private func open(context: ChannelHandlerContext, rest: ByteBuffer) throws {
        let operations = context.pipeline.syncOperations
        try operations.addHandlers(
            [
                WebSocketFrameEncoder(),
                ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize)),
                // A client masks every frame it sends, this handler's close frame included.
                WebSocketProtocolErrorHandler(isServer: false),
            ],
            position: .after(self)
        )
        try opened(context.channel)
        state = .finished
        if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        operations.removeHandler(context: context, promise: nil)
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        guard !isFinished else { return }
        state = .finished
        failed(error)
        // Whatever follows a refusal (a body, maybe endless) is of no use.
        context.close(promise: nil)
    }

    private var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    /// A refused certificate may close the channel without an error reaching this handler.
    func channelInactive(context: ChannelHandlerContext) {
        if !isFinished {
            state = .finished
            failed(ChannelError.ioOnClosedChannel)
        }
        context.fireChannelInactive()
    }
}
