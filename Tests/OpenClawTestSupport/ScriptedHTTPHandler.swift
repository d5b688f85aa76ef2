import NIOCore

/// One connection of ``ScriptedHTTPServer``: waits for the end of the request head, then writes the
/// scripted reply; an endless body is written one chunk at a time, the next once the last was taken.
final class ScriptedHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)

    private let reply: ScriptedHTTPServer.Reply
    private let record: @Sendable (@Sendable (inout ScriptedHTTPServer.Observed) -> Void) -> Void
    private var request: [UInt8] = []
    private var answered = false
    private var written = 0

    init(
        reply: ScriptedHTTPServer.Reply,
        record: @escaping @Sendable (@Sendable (inout ScriptedHTTPServer.Observed) -> Void) -> Void
    ) {
        self.reply = reply
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        request += Array(unwrapInboundIn(data).readableBytesView)
        guard request.count >= 4, request.suffix(4) == Array("\r\n\r\n".utf8) else { return }
        answered = true
        record { $0.requests += 1 }
        answer(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        record { $0.connectionsClosed += 1 }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func answer(context: ChannelHandlerContext) {
        switch reply {
        case .redirect(let status, let location):
            writeHead(context: context, "HTTP/1.1 \(status) Moved\r\nLocation: \(location)\r\nContent-Length: 0\r\n")
        case .body(let bytes):
            writeHead(context: context, "HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\n")
            writeBody(context: context, bytes)
        case .stall:
            writeHead(context: context, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n")
            writeBody(context: context, Array(Self.chunk.prefix(10)))
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .seconds(30)) { channel.close(promise: nil) }
        case .endless(let framing):
            switch framing {
            case .chunked: writeHead(context: context, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n")
            case .contentLength(let stated):
                writeHead(context: context, "HTTP/1.1 200 OK\r\nContent-Length: \(stated)\r\n")
            case .untilClose: writeHead(context: context, "HTTP/1.1 200 OK\r\nConnection: close\r\n")
            }
            pump(context: context, framing: framing)
        }
    }

    private func writeHead(context: ChannelHandlerContext, _ head: String) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head + "\r\n")), promise: nil)
    }

    private func writeBody(context: ChannelHandlerContext, _ bytes: [UInt8]) {
        let count = bytes.count
        record { $0.bodyBytesWritten += count }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
    }

    /// Writes the next chunk once the previous one was taken by the socket, until the cap or the
    /// client's close.
    private func pump(context: ChannelHandlerContext, framing: ScriptedHTTPServer.Framing) {
        guard context.channel.isActive else { return }
        var cap = ScriptedHTTPServer.endlessCap
        if case .contentLength(let stated) = framing { cap = min(cap, stated) }
        guard written < cap else {
            if case .chunked = framing {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "0\r\n\r\n")), promise: nil)
            }
            context.close(promise: nil)
            return
        }
        var buffer = ByteBuffer()
        if case .chunked = framing { buffer.writeString(String(Self.chunk.count, radix: 16) + "\r\n") }
        let count = min(Self.chunk.count, cap - written)
        buffer.writeBytes(Self.chunk.prefix(count))
        if case .chunked = framing { buffer.writeString("\r\n") }
        written += count
        record { $0.bodyBytesWritten += count }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenSuccess {
            bound.value.0.pump(context: bound.value.1, framing: framing)
        }
    }
}
