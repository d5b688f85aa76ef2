import NIOCore
import Synchronization

/// One socket's outbound frames, in the order they were queued.
///
/// Frames are handed to the socket's single write queue (the NIO channel's, FIFO) without waiting for
/// each write to finish; a frame that cannot be written fails its request. Callers queue their own
/// requests, from their own executors, so the hand-over (and the trace line that shows it) happens
/// under one lock: frames reach the socket in the order the trace shows them, whichever thread queued
/// them.
final class OutboundWriter: Sendable {
    let socket: any WebSocketConnection
    /// Called with the request id of a frame the socket could not write.
    private let failed: @Sendable (String) -> Void
    /// Held while a frame is traced and handed to the socket.
    private let order = Mutex(())

    init(socket: any WebSocketConnection, failed: @escaping @Sendable (String) -> Void) {
        self.socket = socket
        self.failed = failed
    }

    /// Queues `utf8Frame`, after `trace` is called: both in the order of the calls.
    func enqueue(utf8Frame: ByteBuffer, requestID: String, trace: () -> Void = {}) {
        let failed = self.failed
        order.withLock { _ in
            trace()
            socket.write(utf8Frame: utf8Frame) { written in
                if !written { failed(requestID) }
            }
        }
    }

    /// Queues `text`, after `trace` is called: both in the order of the calls.
    func enqueue(_ text: String, requestID: String, trace: () -> Void = {}) {
        let failed = self.failed
        order.withLock { _ in
            trace()
            socket.write(text: text) { written in
                if !written { failed(requestID) }
            }
        }
    }
}
