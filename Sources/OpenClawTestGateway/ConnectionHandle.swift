import NIOCore
import NIOWebSocket

/// What a socket's writer does next. Everything a socket emits goes through one ordered queue, so the
/// frame `seq` assigned when an event is queued is also the order on the wire.
enum OutboundAction: Sendable {
    /// A text frame, written after `delayMs` (the event-delay fault).
    case text(String, delayMs: Int)
    /// A close frame with this code and reason; nothing is written after it.
    case close(code: Int, reason: String?)
    /// Close the TCP connection without a close frame.
    case drop
}

/// The transport side of one accepted WebSocket: its outbound queue and the raw channel (for drops).
final class ConnectionHandle: Sendable {
    let id: Int
    /// The `Origin` header of the upgrade request, if the client sent one.
    let origin: String?
    let channel: any Channel
    let actions: AsyncStream<OutboundAction>
    private let continuation: AsyncStream<OutboundAction>.Continuation

    init(id: Int, origin: String?, channel: any Channel) {
        self.id = id
        self.origin = origin
        self.channel = channel
        (actions, continuation) = AsyncStream.makeStream(of: OutboundAction.self)
    }

    func enqueue(_ action: OutboundAction) {
        continuation.yield(action)
    }

    /// Ends the queue; the writer stops after what is already queued.
    func finish() {
        continuation.finish()
    }

    /// Closes the TCP connection at once, bypassing the queue.
    func dropNow() {
        channel.close(mode: .all, promise: nil)
    }

    /// Writes text frames straight to the channel, bypassing the queue, in batches of about
    /// `batchBytes` with one flush each, and returns once the last batch is written to the socket.
    func writeBurst(_ texts: [String], batchBytes: Int) async throws {
        let channel = self.channel
        var start = 0
        while start < texts.count {
            var end = start
            var bytes = 0
            while end < texts.count, end == start || bytes + texts[end].utf8.count <= batchBytes {
                bytes += texts[end].utf8.count
                end += 1
            }
            let batch = Array(texts[start..<end])
            try await channel.eventLoop.flatSubmit {
                for text in batch.dropLast() {
                    channel.write(
                        WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)), promise: nil)
                }
                let last = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: batch[batch.count - 1]))
                return channel.writeAndFlush(last)
            }.get()
            start = end
        }
    }
}
