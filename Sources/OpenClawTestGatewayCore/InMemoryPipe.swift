import OpenClawGateway
import Synchronization

/// The gateway's end of an in-memory socket: what the hub writes is delivered to the client's
/// events in order; a close or a drop ends them, as a real socket's end would.
final class InMemoryPipe: GatewaySocket {
    private struct State {
        var isOpen = true
        var writer: Task<Void, Never>?
    }

    private let source: TransportEventsSource
    private let state = Mutex(State())

    init(source: TransportEventsSource) {
        self.source = source
    }

    var isFromLoopback: Bool { true }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Drains the handle's queue into the client's events (delays included), until a close or a drop.
    func startWriter(handle: ConnectionHandle, hub: GatewayHub) {
        let task = Task { [weak self] in
            for await action in handle.actions {
                guard let self, self.isOpen else { return }
                switch action {
                case .text(let text, let delayMs):
                    if delayMs > 0 { try? await Task.sleep(for: .milliseconds(delayMs)) }
                    self.source.yield(.text(text))
                case .close(let code, let reason):
                    if self.end(.closed(code: code, reason: reason)) { await hub.closed(handle.id) }
                    return
                case .drop:
                    if self.end(.closed(code: nil)) { await hub.closed(handle.id) }
                    return
                }
            }
        }
        state.withLock { $0.writer = task }
    }

    /// What the client's side holds unread.
    var stats: TransportFlowStats { source.stats }

    /// Ends the client's events with `event`; true for the one call that ended them, so the hub hears
    /// of the end exactly once.
    @discardableResult
    func end(_ event: TransportEvent) -> Bool {
        let wasOpen = state.withLock { state in
            defer { state.isOpen = false }
            return state.isOpen
        }
        guard wasOpen else { return false }
        source.yield(event)
        source.finish()
        return true
    }

    /// The hub dropped the socket: the client sees a drop; the hub already knows.
    func dropNow() {
        end(.closed(code: nil))
        state.withLock { $0.writer?.cancel() }
    }

    func writeBurst(_ texts: [String], batchBytes: Int) async throws {
        guard isOpen else { return }
        for text in texts { source.yield(.text(text)) }
    }
}

/// The client's end of an in-memory socket. What it sends reaches the hub in the order sent.
final class InMemoryClientSocket: WebSocketConnection {
    let events: TransportEvents
    private let pipe: InMemoryPipe
    private let handle: ConnectionHandle
    private let hub: GatewayHub
    private let outbound: AsyncStream<String>.Continuation
    private let reader: Task<Void, Never>

    init(hub: GatewayHub, handle: ConnectionHandle, pipe: InMemoryPipe, events: TransportEvents, maxMessageSize: Int) {
        self.events = events
        self.pipe = pipe
        self.handle = handle
        self.hub = hub
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        outbound = continuation
        // One task carries every frame to the hub, so frames arrive in the order they were written.
        reader = Task { [hub, handle, pipe] in
            for await text in stream {
                guard pipe.isOpen else { return }
                if text.utf8.count > maxMessageSize {
                    // What the server's WebSocket layer does with an oversized message: close 1009.
                    if pipe.end(.closed(code: 1009, reason: "message too big")) { await hub.closed(handle.id) }
                    handle.finish()
                    return
                }
                await hub.received(Array(text.utf8), from: handle.id)
            }
        }
    }

    deinit {
        outbound.finish()
    }

    var flow: TransportFlowStats { pipe.stats }

    /// Nothing sits between the two ends that could fail silently: the peer counts as just heard from
    /// (a liveness probe has nothing to find).
    var lastReceived: ContinuousClock.Instant { .now }

    func sendPing() async {}

    func send(text: String) async throws(TransportError) {
        guard pipe.isOpen else { throw .notConnected }
        outbound.yield(text)
    }

    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) {
        guard pipe.isOpen else { return completion(false) }
        outbound.yield(text)
        completion(true)
    }

    func close(code: Int) async {
        outbound.finish()
        guard pipe.end(.closed(code: code)) else { return }
        reader.cancel()
        await hub.closed(handle.id)
        handle.finish()
    }
}
