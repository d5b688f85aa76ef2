import NIOCore

/// One socket's outbound frames, in the order they were queued.
///
/// Each frame used to be sent from its own task, and tasks start in no particular order: two requests
/// made one after the other could reach the gateway the other way round. Frames are now handed to the
/// socket's single write queue (the NIO channel's, FIFO) in the order the connection actor queues them,
/// without waiting for each write to finish; a frame that cannot be written fails its request.
struct OutboundWriter: Sendable {
    let socket: any WebSocketConnection
    /// Called with the request id of a frame the socket could not write.
    let failed: @Sendable (String) async -> Void

    init(socket: any WebSocketConnection, failed: @escaping @Sendable (String) async -> Void) {
        self.socket = socket
        self.failed = failed
    }

    func enqueue(utf8Frame: ByteBuffer, requestID: String) {
        let failed = self.failed
        socket.write(utf8Frame: utf8Frame) { written in
            guard !written else { return }
            Task { await failed(requestID) }
        }
    }

    func enqueue(_ text: String, requestID: String) {
        let failed = self.failed
        socket.write(text: text) { written in
            guard !written else { return }
            Task { await failed(requestID) }
        }
    }
}
