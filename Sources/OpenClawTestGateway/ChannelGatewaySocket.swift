import NIOCore
import NIOWebSocket
import OpenClawTestGatewayCore

/// An accepted WebSocket's NIO channel, as the hub's connections need it.
struct ChannelGatewaySocket: GatewaySocket {
    let channel: any Channel

    var isFromLoopback: Bool {
        guard let ip = channel.remoteAddress?.ipAddress else { return false }
        return ip == "::1" || ip.hasPrefix("127.") || ip.hasPrefix("::ffff:127.")
    }

    func dropNow() {
        channel.close(mode: .all, promise: nil)
    }

    /// Frames are encoded here, a batch into one buffer, and written below the pipeline's frame encoder:
    /// through the pipeline, frame by frame, the writing cost the gateway's process about a quarter of
    /// this 2-core machine while the benchmark's client read, time the client under test then lacked.
    /// The bytes on the wire are the same (server frames are not masked).
    func writeBurst(_ texts: [String], batchBytes: Int) async throws {
        let channel = self.channel
        var start = 0
        while start < texts.count {
            var buffer = channel.allocator.buffer(capacity: batchBytes + 16)
            var end = start
            while end < texts.count, end == start || buffer.readableBytes + texts[end].utf8.count <= batchBytes {
                Self.appendTextFrame(texts[end], to: &buffer)
                end += 1
            }
            let batch = buffer
            try await channel.eventLoop.flatSubmit {
                do {
                    let encoder = try channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self)
                    return encoder.writeAndFlush(NIOAny(batch))
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }.get()
            start = end
        }
    }

    /// One final, unmasked text frame (RFC 6455 §5.2).
    static func appendTextFrame(_ text: String, to buffer: inout ByteBuffer) {
        let length = text.utf8.count
        buffer.writeInteger(UInt8(0x81))
        if length < 126 {
            buffer.writeInteger(UInt8(length))
        } else if length <= Int(UInt16.max) {
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        } else {
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
        buffer.writeString(text)
    }
}
