import NIOCore
import NIOWebSocket
import Synchronization
import WebSocketKit

/// One websocket-kit socket.
///
/// A large text frame (a `chat.send` with attachments: 27 MB for a 20 MB file) goes out as fragments of
/// ``fragmentBytes``, each written once the previous one has left. A client must mask what it sends, and
/// NIO masks a copy of any buffer someone else still holds, which websocket-kit always does: sent whole, the
/// frame would be in memory twice; in fragments, the frame once plus one fragment's copy. While a message is
/// in fragments no other data frame may come between them, so frames written meanwhile wait (in order) and
/// go when its last fragment has left; control frames (ping, close) may, and do, go at once.
final class WebSocketKitConnection: WebSocketConnection {
    /// Fragment size of large messages; every gateway reassembles fragments (RFC 6455 §5.4), and
    /// applies its size limit to the whole message.
    static let fragmentBytes = 1 << 20

    private enum Waiting {
        case text(String, @Sendable (Bool) -> Void)
        case message(ByteBuffer, @Sendable (Bool) -> Void)
    }

    private struct Gate {
        /// A message is going out in fragments (or the frames that waited for one are being written).
        var busy = false
        var waiting: [Waiting] = []
    }

    private let socket: WebSocket
    private let queue: InboundQueue
    private let gate = Mutex(Gate())
    let events: TransportEvents

    init(socket: WebSocket, queue: InboundQueue) {
        self.socket = socket
        self.queue = queue
        self.events = TransportEvents(queue: queue)
    }

    var flow: TransportFlowStats { queue.stats }
    var lastReceived: ContinuousClock.Instant { queue.lastReceived }

    func sendPing() async {
        guard !socket.isClosed else { return }
        let promise = socket.eventLoop.makePromise(of: Void.self)
        socket.sendPing(promise: promise)
        try? await promise.futureResult.get()
    }

    func send(text: String) async throws(TransportError) {
        let written = await withCheckedContinuation { continuation in
            write(text: text) { continuation.resume(returning: $0) }
        }
        guard written else { throw .notConnected }
    }

    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) {
        guard !socket.isClosed else { return completion(false) }
        guard !waitsBehindFragments(.text(text, completion)) else { return }
        inOrder(completion) { [socket] promise in socket.send(text, promise: promise) }
    }

    func write(utf8Frame: ByteBuffer, completion: @escaping @Sendable (Bool) -> Void) {
        guard !socket.isClosed else { return completion(false) }
        let large = utf8Frame.readableBytes > Self.fragmentBytes
        // One lock queues the frame behind a message in fragments, or claims the socket for this one.
        let waits = gate.withLock { gate in
            if gate.busy {
                gate.waiting.append(.message(utf8Frame, completion))
                return true
            }
            if large { gate.busy = true }
            return false
        }
        guard !waits else { return }
        guard large else {
            return inOrder(completion) { [socket] promise in socket.send(utf8Frame, opcode: .text, promise: promise) }
        }
        // Unstructured: the writer's caller must not wait for the network; `completion` says when it ends.
        Task { await self.writeInFragments(utf8Frame, completion: completion) }
    }

    func close(code: Int) async {
        guard !socket.isClosed else { return }
        // Behind the frames queued before it (see `inOrder`).
        let promise = socket.eventLoop.makePromise(of: Void.self)
        let code = WebSocketErrorCode(codeNumber: code)
        socket.eventLoop.execute { [socket] in socket.close(code: code, promise: promise) }
        try? await promise.futureResult.get()
    }

    /// Queues the frame when a fragmented message is going out; false when it can be written now.
    private func waitsBehindFragments(_ frame: Waiting) -> Bool {
        gate.withLock { gate in
            guard gate.busy else { return false }
            gate.waiting.append(frame)
            return true
        }
    }

    /// Writes `message` in fragments, then what waited meanwhile (in order, itself perhaps fragmented),
    /// until nothing waits.
    private func writeInFragments(_ message: ByteBuffer, completion: @escaping @Sendable (Bool) -> Void) async {
        completion(await sendFragments(of: message))
        while let next = nextWaiting() {
            switch next {
            case .text(let text, let completion):
                inOrder(completion) { [socket] promise in socket.send(text, promise: promise) }
            case .message(let frame, let completion) where frame.readableBytes <= Self.fragmentBytes:
                inOrder(completion) { [socket] promise in socket.send(frame, opcode: .text, promise: promise) }
            case .message(let frame, let completion):
                completion(await sendFragments(of: frame))
            }
        }
    }

    private func nextWaiting() -> Waiting? {
        gate.withLock { gate in
            guard !gate.waiting.isEmpty else {
                gate.busy = false
                return nil
            }
            return gate.waiting.removeFirst()
        }
    }

    /// Each fragment is a buffer of its own (only it is copied when NIO masks it), written after the
    /// previous one has left; false when the socket failed on the way.
    private func sendFragments(of message: ByteBuffer) async -> Bool {
        var offset = message.readerIndex
        let end = message.writerIndex
        while offset < end {
            let length = min(Self.fragmentBytes, end - offset)
            guard let slice = message.getSlice(at: offset, length: length) else { return false }
            var fragment = ByteBufferAllocator().buffer(capacity: length)
            fragment.writeImmutableBuffer(slice)
            let promise = socket.eventLoop.makePromise(of: Void.self)
            let opcode: WebSocketOpcode = offset == message.readerIndex ? .text : .continuation
            let fin = offset + length == end
            socket.eventLoop.execute { [socket] in socket.send(fragment, opcode: opcode, fin: fin, promise: promise) }
            do {
                try await promise.futureResult.get()
            } catch {
                return false
            }
            offset += length
        }
        return true
    }

    /// `send` run on the socket's event loop, always queued there, even from the loop itself: NIO keeps the
    /// order of writes made from one thread only, and frames come from any thread (a write made on the loop
    /// went out at once, ahead of frames queued earlier from elsewhere). The loop runs what is queued in the
    /// order of these calls, which the writer's lock sets.
    private func inOrder(
        _ completion: @escaping @Sendable (Bool) -> Void, _ send: @escaping @Sendable (EventLoopPromise<Void>) -> Void
    ) {
        let promise = promise(completion)
        socket.eventLoop.execute { send(promise) }
    }

    private func promise(_ completion: @escaping @Sendable (Bool) -> Void) -> EventLoopPromise<Void> {
        let promise = socket.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { result in
            if case .success = result { completion(true) } else { completion(false) }
        }
        return promise
    }
}
