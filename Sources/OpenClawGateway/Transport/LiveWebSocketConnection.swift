import NIOCore
import NIOWebSocket
import Synchronization

/// One gateway WebSocket on a SwiftNIO channel (opened by ``WebSocketDialer``).
///
/// A large text frame (a `chat.send` with attachments: 27 MB for a 20 MB file) goes out as fragments of
/// ``fragmentBytes``, each written once the previous one has left. A client must mask what it sends, and
/// NIO masks a copy of any buffer someone else still holds: sent whole, the frame would be in memory
/// twice; in fragments, the frame once plus one fragment's copy. While a message is in fragments no other
/// data frame may come between them, so frames written meanwhile wait (in order) and go when its last
/// fragment has left; control frames (ping, close) may, and do, go at once.
final class LiveWebSocketConnection: WebSocketConnection {
    /// Fragment size of large messages; every gateway reassembles fragments (RFC 6455 §5.4), and
    /// applies its size limit to the whole message.
    static let fragmentBytes = 1 << 20
    /// How long a close this end started waits for the peer's answer before the socket is let go.
    static let closeAnswerTimeout = TimeAmount.seconds(2)

    private enum Waiting {
        case text(String, @Sendable (Bool) -> Void)
        case message(ByteBuffer, @Sendable (Bool) -> Void)
    }

    private struct Gate {
        /// A message is going out in fragments (or the frames that waited for one are being written).
        var busy = false
        var waiting: [Waiting] = []
    }

    /// The closing handshake, as RFC 6455 §7 has it.
    private struct Closing {
        /// This end sent its close frame: the peer's answer ends the socket.
        var sent = false
        /// The code the socket ended with: this end's, or the peer's when the peer started.
        var code: Int?
    }

    private let channel: any Channel
    private let queue: InboundQueue
    private let gate = Mutex(Gate())
    private let closing = Mutex(Closing())
    let events: TransportEvents

    private init(channel: any Channel, queue: InboundQueue) {
        self.channel = channel
        self.queue = queue
        self.events = TransportEvents(queue: queue)
    }

    /// Adds the frame handlers behind NIO's WebSocket decoder, on the channel's event loop, before any
    /// frame is read.
    static func install(
        on channel: any Channel, queue: InboundQueue, maxMessageBytes: Int
    ) throws -> LiveWebSocketConnection {
        // Gone already: no handler would ever learn of its end, and the reader would wait for good.
        guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
        let connection = LiveWebSocketConnection(channel: channel, queue: queue)
        // Close with 1009 and let the socket go at once: a peer that keeps streaming fragments would
        // never answer the close frame.
        let inboundGuard = InboundGuard(maxMessageBytes: maxMessageBytes, queue: queue) {
            connection.closeTooLarge()
        }
        // Backstops only: `InboundGuard` closes with 1009 before the aggregator's own limits.
        let aggregator = NIOWebSocketFrameAggregator(
            minNonFinalFragmentSize: 0,
            maxAccumulatedFrameCount: InboundGuard.maxFragments * 2,
            maxAccumulatedFrameSize: Int(min(Int64(UInt32.max), Int64(maxMessageBytes) * 2))
        )
        let receiver = WebSocketReceiver(connection: connection, queue: queue)
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(inboundGuard)
        try operations.addHandler(aggregator)
        try operations.addHandler(receiver)
        let bound = NIOLoopBound(inboundGuard, eventLoop: channel.eventLoop)
        let eventLoop = channel.eventLoop
        queue.onResume {
            eventLoop.execute { bound.value.resumeReading() }
        }
        return connection
    }

    var flow: TransportFlowStats { queue.stats }
    var lastReceived: ContinuousClock.Instant { queue.lastReceived }
    private var isClosed: Bool { !channel.isActive }

    func sendPing() async {
        guard !isClosed else { return }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        channel.eventLoop.execute { [self] in send(ByteBuffer(), opcode: .ping, promise: promise) }
        try? await promise.futureResult.get()
    }

    func send(text: String) async throws(TransportError) {
        let written = await withCheckedContinuation { continuation in
            write(text: text) { continuation.resume(returning: $0) }
        }
        guard written else { throw .notConnected }
    }

    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) {
        guard !isClosed else { return completion(false) }
        guard !waitsBehindFragments(.text(text, completion)) else { return }
        inOrder(completion) { [self] promise in send(ByteBuffer(string: text), opcode: .text, promise: promise) }
    }

    func write(utf8Frame: ByteBuffer, completion: @escaping @Sendable (Bool) -> Void) {
        guard !isClosed else { return completion(false) }
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
            return inOrder(completion) { [self] promise in send(utf8Frame, opcode: .text, promise: promise) }
        }
        // Unstructured: the writer's caller must not wait for the network; `completion` says when it ends.
        Task { await self.writeInFragments(utf8Frame, completion: completion) }
    }

    func close(code: Int) async {
        guard !isClosed else { return }
        // Behind the frames queued before it (see `inOrder`).
        let promise = channel.eventLoop.makePromise(of: Void.self)
        channel.eventLoop.execute { [self] in startClose(code: code, promise: promise) }
        try? await promise.futureResult.get()
    }

    /// Sends this end's close frame once; the socket is let go when the peer answers, or after
    /// ``closeAnswerTimeout``. On the event loop.
    private func startClose(code: Int, promise: EventLoopPromise<Void>?) {
        let first = closing.withLock { closing in
            defer { closing.sent = true }
            if !closing.sent { closing.code = code }
            return !closing.sent
        }
        guard first, channel.isActive else {
            promise?.succeed(())
            return
        }
        sendClose(code: code, promise: promise)
        channel.eventLoop.scheduleTask(in: Self.closeAnswerTimeout) { [channel] in channel.close(promise: nil) }
    }

    /// The peer sent a close frame: the answer to this end's, or its own, which is answered with its
    /// code before the socket is let go. On the event loop.
    func peerSentClose(code: Int?) {
        let answered = closing.withLock { closing in
            defer { closing.sent = true }
            if !closing.sent { closing.code = code ?? 1005 }
            return closing.sent
        }
        guard !answered else {
            channel.close(promise: nil)
            return
        }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [channel] _ in channel.close(promise: nil) }
        sendClose(code: code, promise: promise)
    }

    /// A close frame with `code`. 1005 and 1006 report a missing status and a lost connection; they never
    /// go on the wire (nor does no code), 1000 does instead.
    private func sendClose(code: Int?, promise: EventLoopPromise<Void>?) {
        let wireCode = code.map { $0 == 1005 || $0 == 1006 ? 1000 : $0 } ?? 1000
        var payload = channel.allocator.buffer(capacity: 2)
        payload.writeInteger(UInt16(truncatingIfNeeded: wireCode))
        send(payload, opcode: .connectionClose, promise: promise)
    }

    /// A message over the limit: close with 1009 and let the socket go at once (a peer still streaming
    /// fragments would not answer). On the event loop.
    func closeTooLarge() {
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [channel] _ in channel.close(promise: nil) }
        startClose(code: 1009, promise: promise)
    }

    /// The channel is gone: the queue's last event, with the peer's close code when there was one.
    func channelEnded() {
        let code = closing.withLock { $0.code }
        // 1005 and 1006 are local reports of "no status" and "abnormal closure": the peer sent nothing.
        let peerCode = (code == 1005 || code == 1006) ? nil : code
        // After an oversized message the events have already ended (`tooLarge`): this push is ignored.
        queue.push(.closed(code: peerCode, reason: peerCode == nil ? nil : queue.peerCloseReason))
    }

    /// A masked frame onto the channel (a client masks everything it sends, RFC 6455 §5.3).
    private func send(_ data: ByteBuffer, opcode: WebSocketOpcode, fin: Bool = true, promise: EventLoopPromise<Void>?) {
        // Nothing but control frames after this end's close frame (RFC 6455 §5.5.1).
        if opcode == .text || opcode == .binary || opcode == .continuation, closing.withLock({ $0.sent }) {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        let frame = WebSocketFrame(fin: fin, opcode: opcode, maskKey: MaskKeys.next(), data: data)
        channel.writeAndFlush(frame, promise: promise)
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
                inOrder(completion) { [self] promise in send(ByteBuffer(string: text), opcode: .text, promise: promise)
                }
            case .message(let frame, let completion) where frame.readableBytes <= Self.fragmentBytes:
                inOrder(completion) { [self] promise in send(frame, opcode: .text, promise: promise) }
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
            let promise = channel.eventLoop.makePromise(of: Void.self)
            let opcode: WebSocketOpcode = offset == message.readerIndex ? .text : .continuation
            let fin = offset + length == end
            channel.eventLoop.execute { [self, fragment] in send(fragment, opcode: opcode, fin: fin, promise: promise) }
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
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { result in
            if case .success = result { completion(true) } else { completion(false) }
        }
        channel.eventLoop.execute { send(promise) }
    }
}
