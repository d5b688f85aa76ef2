import Crypto
import NIOCore
import NIOPosix
import OpenClawProtocol
import OpenClawTestSupport
import Synchronization
import Testing

@testable import OpenClawGateway

/// The client's own WebSocket upgrade against servers that do not behave: one that never answers, one that
/// refuses, and what the request says.
@Suite("WebSocket upgrade against raw servers")
struct WebSocketDialerTests {
    @Test func aConnectAttemptCancelledBeforeTheUpgradeClosesItsSocket() async throws {
        let server = try await SilentServer.start(answer: nil)
        defer { server.stop() }
        let attempt = Task {
            try await LiveWebSocketTransport().connect(
                to: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port), maxFrameSize: 1 << 20)
        }
        #expect(await eventually { server.seen { $0.opened } == 1 })
        attempt.cancel()
        // The server never answers, so only the client can end the socket.
        #expect(await eventually { server.seen { $0.closed } == 1 })
        await #expect(throws: (any Error).self) { _ = try await attempt.value }
    }

    @Test func aServerThatNeverAnswersTheUpgradeIsGivenUpOnAtTheDeadline() async throws {
        let server = try await SilentServer.start(answer: nil)
        defer { server.stop() }
        let options = WebSocketDialer.Options(
            maxMessageBytes: 1 << 20, check: nil, verdict: TLSVerification.Verdict(), timeout: .milliseconds(300))
        let attempt = Task {
            try await WebSocketDialer.connect(
                url: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port),
                group: MultiThreadedEventLoopGroup.singleton, options: options, queue: InboundQueue())
        }
        // Bounded by the test, not by the code under test: without the deadline the attempt never ends.
        #expect(await eventually(timeout: .seconds(10)) { server.seen { $0.closed } == 1 })
        attempt.cancel()
        await #expect(throws: (any Error).self) { _ = try await attempt.value }
    }

    @Test func aRefusalWithAnEndlessBodyStillClosesTheSocket() async throws {
        let server = try await SilentServer.start(
            answer: "HTTP/1.1 401 Unauthorized\r\nContent-Length: 1000000000\r\n\r\nnot yet")
        defer { server.stop() }
        await #expect(throws: TransportError.upgradeRejected(status: 401)) {
            _ = try await LiveWebSocketTransport().connect(
                to: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port), maxFrameSize: 1 << 20)
        }
        #expect(await eventually(timeout: .seconds(10)) { server.seen { $0.closed } == 1 })
    }

    @Test func aRefusedUpgradeIsTheStatusAndTheRequestCarriesNoOrigin() async throws {
        let server = try await SilentServer.start(
            answer: "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { server.stop() }
        await #expect(throws: TransportError.upgradeRejected(status: 403)) {
            _ = try await LiveWebSocketTransport().connect(
                to: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port, path: "/ws", query: "a=1"),
                maxFrameSize: 1 << 20)
        }
        let request = server.seen { $0.request }.lowercased()
        #expect(request.hasPrefix("get /ws?a=1 http/1.1\r\n"), "\(request)")
        #expect(request.contains("\r\nhost: 127.0.0.1:\(server.port)\r\n"), "\(request)")
        #expect(request.contains("\r\nupgrade: websocket\r\n"), "\(request)")
        #expect(request.contains("\r\nsec-websocket-version: 13\r\n"), "\(request)")
        #expect(!request.contains("\r\norigin:"), "\(request)")
    }

    @Test func aChallengeThatSharesTheAnswersPacketIsTheFirstMessage() async throws {
        let server = try await SilentServer.start { request in
            [Self.switchingProtocols(to: request) + Self.textFrame(#"{"event":"connect.challenge"}"#)]
        }
        defer { server.stop() }
        let connection = try await LiveWebSocketTransport().connect(
            to: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port), maxFrameSize: 1 << 20)
        #expect(await Self.firstEvent(of: connection) == .text(#"{"event":"connect.challenge"}"#))
        await connection.close(code: 1000)
    }

    @Test func anAnswerTrickledAByteAtATimeOpensTheSocket() async throws {
        let server = try await SilentServer.start { request in
            (Self.switchingProtocols(to: request) + Self.textFrame("hello")).map { [$0] }
        }
        defer { server.stop() }
        let connection = try await LiveWebSocketTransport().connect(
            to: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port), maxFrameSize: 1 << 20)
        #expect(await Self.firstEvent(of: connection) == .text("hello"))
        await connection.close(code: 1000)
    }

    @Test func anAnswerWithAnotherKeysAcceptIsRefusedAndItsSocketClosed() async throws {
        let server = try await SilentServer.start { _ in
            let otherKey = WebSocketHandshake.random().key
            return [Self.switchingProtocols(key: otherKey) + Self.textFrame("hello")]
        }
        defer { server.stop() }
        await #expect(throws: TransportError.other(WebSocketUpgradeFailure.wrongAccept.description)) {
            _ = try await LiveWebSocketTransport().connect(
                to: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port), maxFrameSize: 1 << 20)
        }
        #expect(await eventually(timeout: .seconds(10)) { server.seen { $0.closed } == 1 })
    }

    /// Without the head's limit the attempt would wait for its 10 s deadline, holding what came.
    @Test func anAnswerHeadThatNeverEndsIsGivenUpAtItsLimit() async throws {
        let padding = String(repeating: "X-Padding: \(String(repeating: "a", count: 100))\r\n", count: 400)
        let server = try await SilentServer.start { _ in
            [Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\(padding)".utf8)]
        }
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: TransportError.other(WebSocketUpgradeFailure.answerTooLarge.description)) {
            _ = try await LiveWebSocketTransport().connect(
                to: GatewayURL(isSecure: false, host: "127.0.0.1", port: server.port), maxFrameSize: 1 << 20)
        }
        #expect(clock.now - start < .seconds(5))
        #expect(await eventually(timeout: .seconds(10)) { server.seen { $0.closed } == 1 })
    }

    /// The socket's first event, or nil after 10 s (the socket is then closed, which ends the wait).
    private static func firstEvent(of connection: any WebSocketConnection) async -> TransportEvent? {
        await withTaskGroup(of: TransportEvent?.self) { group in
            group.addTask {
                var events = connection.events.makeAsyncIterator()
                return await events.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            await connection.close(code: 1000)
            group.cancelAll()
            return first
        }
    }

    /// A WebSocket server's answer to `request`'s key (RFC 6455 §4.2.2), computed here on its own.
    private static func switchingProtocols(to request: String) -> [UInt8] {
        let keyLine = request.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
        let key = keyLine.map { $0.dropFirst("sec-websocket-key:".count).trimmingPrefix(" ") } ?? ""
        return switchingProtocols(key: String(key))
    }

    private static func switchingProtocols(key: String) -> [UInt8] {
        let digest = Insecure.SHA1.hash(data: Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
        let answer =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(Base64.encode(Array(digest)))\r\n\r\n"
        return Array(answer.utf8)
    }

    /// An unmasked text frame, as a server sends one (payload under 126 bytes).
    private static func textFrame(_ text: String) -> [UInt8] {
        [0x81, UInt8(text.utf8.count)] + Array(text.utf8)
    }
}

/// A TCP server that reads what a client sends and answers once (or never) with `answer`.
private final class SilentServer: Sendable {
    struct Record {
        var opened = 0
        var closed = 0
        var request = ""
    }

    private let box: RecordBox
    private let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel, box: RecordBox) {
        self.channel = channel
        self.box = box
    }

    /// What the server has seen so far.
    func seen<Value>(_ read: (Record) -> Value) -> Value { box.record.withLock { read($0) } }

    static func start(answer: String?) async throws -> SilentServer {
        try await start { _ in answer.map { [Array($0.utf8)] } }
    }

    /// `answering` gets the whole request and returns the answer's pieces, each written and flushed on its
    /// own (nil: never answer).
    static func start(answering: @escaping @Sendable (String) -> [[UInt8]]?) async throws -> SilentServer {
        let box = RecordBox()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Listener(box: box, answering: answering))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return SilentServer(channel: channel, box: box)
    }

    func stop() { channel.close(promise: nil) }
}

/// What the server's connections saw, shared with the test.
private final class RecordBox: Sendable {
    let record = Mutex(SilentServer.Record())
    func update(_ change: (inout SilentServer.Record) -> Void) { record.withLock { change(&$0) } }
}

private final class Listener: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let box: RecordBox
    private let answering: @Sendable (String) -> [[UInt8]]?
    private var request = ""
    private var answered = false

    init(box: RecordBox, answering: @escaping @Sendable (String) -> [[UInt8]]?) {
        self.box = box
        self.answering = answering
    }

    func channelActive(context: ChannelHandlerContext) {
        box.update { $0.opened += 1 }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let text = String(buffer: unwrapInboundIn(data))
        box.update { $0.request += text }
        request += text
        guard !answered, request.contains("\r\n\r\n") else { return }
        answered = true
        for piece in answering(request) ?? [] {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: piece)), promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        box.update { $0.closed += 1 }
        context.fireChannelInactive()
    }
}
