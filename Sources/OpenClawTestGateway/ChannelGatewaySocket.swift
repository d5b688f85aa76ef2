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
