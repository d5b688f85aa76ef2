import NIOCore
import NIOPosix
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
        let box = RecordBox()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Listener(box: box, answer: answer))
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
    private let answer: String?
    private var answered = false

    init(box: RecordBox, answer: String?) {
        self.box = box
        self.answer = answer
    }

    func channelActive(context: ChannelHandlerContext) {
        box.update { $0.opened += 1 }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let text = String(buffer: unwrapInboundIn(data))
        box.update { $0.request += text }
        guard let answer, !answered, text.contains("\r\n\r\n") else { return }
        answered = true
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        box.update { $0.closed += 1 }
        context.fireChannelInactive()
    }
}
