/// What a socket's writer does next. Everything a socket emits goes through one ordered queue, so the
/// frame `seq` assigned when an event is queued is also the order on the wire.
package enum OutboundAction: Sendable {
    /// A text frame, written after `delayMs` (the event-delay fault).
    case text(String, delayMs: Int)
    /// A close frame with this code and reason; nothing is written after it.
    case close(code: Int, reason: String?)
    /// Close the TCP connection without a close frame.
    case drop
}

/// The socket under a connection, as the hub needs it beyond the outbound queue: the real server's
/// TCP channel, or the in-memory pipe of a gateway that runs without networking.
package protocol GatewaySocket: Sendable {
    /// Whether the peer is on this machine (origin checks trust a loopback page only from loopback).
    var isFromLoopback: Bool { get }
    /// Ends the connection at once, without a close frame and bypassing the queue.
    func dropNow()
    /// Writes text frames straight to the peer, bypassing the queue, as fast as it takes them (in
    /// batches of about `batchBytes`), and returns once the last is written.
    func writeBurst(_ texts: [String], batchBytes: Int) async throws
}

/// The transport side of one accepted WebSocket: its outbound queue and the socket (for drops).
package final class ConnectionHandle: Sendable {
    package let id: Int
    /// The `Origin` header of the upgrade request, if the client sent one.
    let origin: String?
    let socket: any GatewaySocket
    package let actions: AsyncStream<OutboundAction>
    private let continuation: AsyncStream<OutboundAction>.Continuation

    package init(id: Int, origin: String?, socket: any GatewaySocket) {
        self.id = id
        self.origin = origin
        self.socket = socket
        (actions, continuation) = AsyncStream.makeStream(of: OutboundAction.self)
    }

    var isFromLoopback: Bool { socket.isFromLoopback }

    func enqueue(_ action: OutboundAction) {
        continuation.yield(action)
    }

    /// Ends the queue; the writer stops after what is already queued.
    package func finish() {
        continuation.finish()
    }

    /// Closes the connection at once, bypassing the queue.
    package func dropNow() {
        socket.dropNow()
    }

    func writeBurst(_ texts: [String], batchBytes: Int) async throws {
        try await socket.writeBurst(texts, batchBytes: batchBytes)
    }
}
