import NIOCore
import NIOHTTP1

/// Sends one GET and keeps the response body only while it stays within a byte limit, as it arrives:
/// memory is bounded by the limit plus one read, whether the body is chunked or has a length (a stated
/// length over the limit is refused before any of it is read).
///
/// Anything else than a 200 ends the exchange: a redirect (3xx) is reported with its `Location`, never
/// followed. A silence longer than the idle timeout (during the TLS handshake, before the head or
/// between body reads) ends it too. The channel is closed once the promise is completed.
final class CappedResponseHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let request: HTTPRequestHead
    private let limit: Int
    private let idleTimeout: TimeAmount
    private let promise: EventLoopPromise<ByteBuffer>
    /// Set once the 200 head arrived.
    private var body: ByteBuffer?
    private var idleTimer: Scheduled<Void>?
    private var sent = false
    private var finished = false

    init(request: HTTPRequestHead, limit: Int, idleTimeout: TimeAmount, promise: EventLoopPromise<ByteBuffer>) {
        self.request = request
        self.limit = limit
        self.idleTimeout = idleTimeout
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        restartIdleTimer(context: context)
        if context.channel.isActive { send(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleTimer?.cancel()
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
        context.fireChannelActive()
    }

    /// Written before the TLS handshake ends, NIOSSL holds it until the certificate was accepted: the
    /// path and its ticket never reach a server this connection does not trust.
    private func send(context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        restartIdleTimer(context: context)
        switch unwrapInboundIn(data) {
        case .head(let head):
            let status = Int(head.status.code)
            let stated = head.headers.first(name: "content-length").flatMap(Int.init)
            if (300..<400).contains(status) {
                let location = head.headers.first(name: "location")
                finish(context: context, .failure(HTTPDownloadError.redirected(status: status, location: location)))
            } else if status != 200 {
                finish(context: context, .failure(HTTPDownloadError.status(status)))
            } else if let stated, stated > limit {
                finish(context: context, .failure(HTTPDownloadError.tooLarge(received: 0)))
            } else {
                body = context.channel.allocator.buffer(capacity: min(stated ?? 64 * 1024, limit))
            }
        case .body(let chunk):
            guard var kept = body else { return }
            guard kept.readableBytes + chunk.readableBytes <= limit else {
                finish(context: context, .failure(HTTPDownloadError.tooLarge(received: kept.readableBytes)))
                return
            }
            body = nil
            kept.writeImmutableBuffer(chunk)
            body = kept
        case .end:
            if let body {
                finish(context: context, .success(body))
            } else {
                finish(context: context, .failure(HTTPDownloadError.truncated(received: 0)))
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parser = error as? HTTPParserError, parser == .invalidEOFState {
            // The connection ended inside a body whose length was stated.
            finish(context: context, .failure(HTTPDownloadError.truncated(received: body?.readableBytes ?? 0)))
        } else {
            finish(context: context, .failure(error))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context: context, .failure(HTTPDownloadError.truncated(received: body?.readableBytes ?? 0)))
        context.fireChannelInactive()
    }

    private func finish(context: ChannelHandlerContext, _ result: Result<ByteBuffer, any Error>) {
        guard !finished else { return }
        finished = true
        idleTimer?.cancel()
        body = nil
        promise.completeWith(result)
        context.close(promise: nil)
    }

    private func restartIdleTimer(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(in: idleTimeout) {
            loopBoundSelf.value.finish(context: loopBoundContext.value, .failure(HTTPDownloadError.timedOut))
        }
    }
}
