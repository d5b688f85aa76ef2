import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import OpenClawProtocol
import Synchronization

/// What a raw client has seen: every frame in arrival order, and how the socket ended. Written from
/// the event loop synchronously (so arrival order is kept), read by polling tests.
final class Inbox: Sendable {
    private struct State {
        var frames: [JSONValue] = []
        var cursor = 0
        var closed = false
        var closeCode: Int?
        var pongs: [[UInt8]] = []
    }

    private let state = Mutex(State())

    var frames: [JSONValue] { state.withLock { $0.frames } }
    var closed: Bool { state.withLock { $0.closed } }
    /// The close code the server sent; nil after an abrupt close (no close frame).
    var closeCode: Int? { state.withLock { $0.closeCode } }

    func append(_ frame: JSONValue) { state.withLock { $0.frames.append(frame) } }

    /// The data of every pong received, in order.
    var pongs: [[UInt8]] { state.withLock { $0.pongs } }

    func appendPong(_ data: [UInt8]) { state.withLock { $0.pongs.append(data) } }

    func markClosed(code: Int?) {
        state.withLock {
            $0.closed = true
            $0.closeCode = code
        }
    }

    /// The first frame received so far, read or not, matching `predicate` (searched in place).
    func first(where predicate: (JSONValue) -> Bool) -> JSONValue? {
        state.withLock { $0.frames.first(where: predicate) }
    }

    /// The first unread frame matching `predicate`; frames before it are skipped.
    func take(where predicate: (JSONValue) -> Bool) -> JSONValue? {
        state.withLock { state in
            guard let index = state.frames[state.cursor...].firstIndex(where: predicate) else { return nil }
            state.cursor = index + 1
            return state.frames[index]
        }
    }
}

struct ClientTimeout: Error, CustomStringConvertible {
    var waitingFor: String
    var description: String { "timed out waiting for \(waitingFor)" }
}

/// A minimal WebSocket client speaking raw gateway frames, independent of the real connection engine.
final class RawGatewayClient: Sendable {
    let socket: RawWebSocket
    let inbox: Inbox

    private init(socket: RawWebSocket, inbox: Inbox) {
        self.socket = socket
        self.inbox = inbox
    }

    /// Connects and completes the upgrade, or throws ``ClientTimeout`` after `timeout` (a server that
    /// closes the socket before answering, as a short handshake timeout on a loaded machine can).
    static func connect(
        to url: String, origin: String? = nil, timeout: Duration = .seconds(15)
    ) async throws -> RawGatewayClient {
        let inbox = Inbox()
        let socket = try await RawWebSocket.connect(to: url, origin: origin, timeout: timeout, inbox: inbox)
        return RawGatewayClient(socket: socket, inbox: inbox)
    }

    func send(_ frame: JSONValue) async throws {
        try await socket.send(.text, JSONSerializer.bytes(frame))
    }

    func sendBinary(_ frame: JSONValue) async throws {
        try await socket.send(.binary, JSONSerializer.bytes(frame))
    }

    func sendText(_ text: String) async throws {
        try await socket.send(.text, Array(text.utf8))
    }

    func close() async {
        try? await socket.close(code: .normalClosure)
    }

    /// Waits for the first unread frame matching `predicate`.
    func next(
        _ what: String = "a frame",
        timeout: Duration = .seconds(15),
        where predicate: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
    ) async throws -> JSONValue {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let frame = inbox.take(where: predicate) { return frame }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw ClientTimeout(waitingFor: what)
    }

    func event(
        _ name: String, timeout: Duration = .seconds(15),
        where predicate: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
    ) async throws -> JSONValue {
        try await next("event \(name)", timeout: timeout) { frame in
            frame["type"] == "event" && frame["event"]?.stringValue == name && predicate(frame)
        }
    }

    func response(id: String, timeout: Duration = .seconds(15)) async throws -> JSONValue {
        try await next("response \(id)", timeout: timeout) { $0["type"] == "res" && $0["id"]?.stringValue == id }
    }

    /// Sends a request and waits for its response frame.
    func request(_ method: String, params: JSONValue? = nil, id: String? = nil) async throws -> JSONValue {
        let requestId = id ?? "r-\(UInt32.random(in: 0...UInt32.max))"
        try await send(RequestFrame(id: requestId, method: method, params: params).json)
        return try await response(id: requestId)
    }

    /// Waits until the socket is closed; returns the server's close code (nil when dropped abruptly).
    func closeCode(timeout: Duration = .seconds(15)) async throws -> Int? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if inbox.closed { return inbox.closeCode }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw ClientTimeout(waitingFor: "the socket to close")
    }

    var frames: [JSONValue] { inbox.frames }
}
