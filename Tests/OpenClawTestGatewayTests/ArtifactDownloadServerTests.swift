import Foundation
import NIOCore
import NIOPosix
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Synchronization
import Testing

/// The artifact URL served over plain HTTP: whole to a reader slower than the gateway writes, and to
/// no one without the ticket.
@Suite("Test gateway: artifact downloads over HTTP")
struct ArtifactDownloadServerTests {
    static let imageBytes = 16 * 1_048_576

    /// Draws an image in a v4 gateway and returns the ticketed URL `artifacts.download` hands out.
    private func ticketedPath(_ gateway: TestGateway) async throws -> String {
        let (client, _) = try await HandshakeHelper().open(gateway.url)
        _ = try await client.chatSend("draw a cat", key: "draw-1")
        _ = try await client.terminalChat(runId: "draw-1")
        let history = try await client.request("chat.history", params: ["sessionKey": "main"])
        let blocks = (history["payload"]?["messages"]?.arrayValue ?? []).flatMap { $0["content"]?.arrayValue ?? [] }
        let artifactId = try #require(blocks.first { $0["type"] == "image" }?["artifactId"]?.stringValue)
        let download = try await client.request(
            "artifacts.download", params: ["artifactId": .string(artifactId), "sessionKey": "main"])
        await client.close()
        return try #require(download["payload"]?["url"]?.stringValue)
    }

    @Test func aSlowReaderGetsTheWholeBodyBeforeTheConnectionCloses() async throws {
        var configuration = TestGatewayConfiguration(protocolNumber: 4)
        configuration.agent.drawnImageBytes = Self.imageBytes
        try await withTestGateway(configuration) { gateway in
            let path = try await ticketedPath(gateway)
            // The gateway writes 16 MB at once; this reader waits before reading any of it, so most of the
            // body is still in the gateway's buffers when it has handed over its last chunk.
            let response = try await SlowHTTPReader.get(path, port: gateway.port, waitBeforeReading: .milliseconds(500))
            #expect(response.status == 200)
            #expect(response.body.count == Self.imageBytes)
        }
    }

    @Test func aWrongTicketOrAnotherPathIs404() async throws {
        var configuration = TestGatewayConfiguration(protocolNumber: 4)
        configuration.agent.drawnImageBytes = 1024
        try await withTestGateway(configuration) { gateway in
            let path = try await ticketedPath(gateway)
            let wrongTicket = String(path.prefix { $0 != "?" }) + "?ticket=forged"
            let nested = path.replacingOccurrences(of: "?", with: "/more?")
            for target in [wrongTicket, "/", "/api/chat/media/outgoing/?ticket=x", nested] {
                let response = try await SlowHTTPReader.get(target, port: gateway.port, waitBeforeReading: .zero)
                #expect(response.status == 404, "\(target)")
            }
            #expect(try await SlowHTTPReader.get(path, port: gateway.port, waitBeforeReading: .zero).status == 200)
        }
    }
}

extension ArtifactDownloadServerTests {
    @Test func aHeadGetsTheHeadersAloneAndAKeptAliveConnectionAnswersTwice() async throws {
        var configuration = TestGatewayConfiguration(protocolNumber: 4)
        configuration.agent.drawnImageBytes = 5_000
        try await withTestGateway(configuration) { gateway in
            let path = try await ticketedPath(gateway)
            let head = try await SlowHTTPReader.exchange(
                "HEAD \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: gateway.port)
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.hasSuffix("\r\n\r\n"), "a HEAD answer ends with its headers: \(head.suffix(40))")
            let twice = try await SlowHTTPReader.exchange(
                "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\nGET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                port: gateway.port)
            #expect(twice.components(separatedBy: "HTTP/1.1 200").count == 3)
            // HTTP/1.0 has no chunks: its body ends with the connection, which must close.
            let old = try await SlowHTTPReader.exchange(
                "GET \(path) HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", port: gateway.port)
            #expect(old.hasPrefix("HTTP/1.0 200"))
        }
    }
}

/// A one-request HTTP/1.1 client (`Connection: close`) that starts reading only after a pause, and
/// decodes a chunked body.
enum SlowHTTPReader {
    struct Response {
        var status: Int
        var body: [UInt8]
    }

    static func get(_ target: String, port: Int, waitBeforeReading: Duration) async throws -> Response {
        let received = ReceivedBytes()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.autoRead, value: false)
            .channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: 16_384)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteCollector(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        try await Task.sleep(for: waitBeforeReading)
        _ = channel.setOption(ChannelOptions.autoRead, value: true)
        channel.read()
        // A body never ended fails the test rather than hanging it.
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(60)) { channel.close(promise: nil) }
        try await channel.closeFuture.get()
        deadline.cancel()
        return try parse(received.bytes)
    }

    /// Sends `requests` as they are and returns all that comes back until the server closes (or throws
    /// after `timeout`: a connection left open is a failure here, not a hang).
    static func exchange(_ requests: String, port: Int, timeout: Duration = .seconds(20)) async throws -> String {
        let received = ReceivedBytes()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteCollector(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let expired = Mutex(false)
        let deadline = channel.eventLoop.scheduleTask(in: timeAmount(timeout)) {
            expired.withLock { $0 = true }
            channel.close(promise: nil)
        }
        try await channel.writeAndFlush(ByteBuffer(string: requests))
        try await channel.closeFuture.get()
        deadline.cancel()
        guard !expired.withLock({ $0 }) else { throw ClientTimeout(waitingFor: "the server to close") }
        return String(decoding: received.bytes, as: UTF8.self)
    }

    private static func parse(_ bytes: [UInt8]) throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: separator) else { throw ClientTimeout(waitingFor: "response headers") }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        var rest = bytes[end.upperBound...]
        guard head.lowercased().contains("transfer-encoding: chunked") else {
            return Response(status: status, body: Array(rest))
        }
        var body: [UInt8] = []
        while let lineEnd = rest.firstRange(of: Array("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
            let start = lineEnd.upperBound
            guard size > 0, rest.endIndex - start >= size else { break }
            body += rest[start..<(start + size)]
            rest = rest[(start + size)...].dropFirst(2)
        }
        return Response(status: status, body: body)
    }
}

private final class ReceivedBytes: Sendable {
    private let all = Mutex<[UInt8]>([])
    var bytes: [UInt8] { all.withLock { $0 } }
    func append(_ buffer: ByteBuffer) { all.withLock { $0 += buffer.readableBytesView } }
}

private final class ByteCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let received: ReceivedBytes
    init(received: ReceivedBytes) { self.received = received }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received.append(unwrapInboundIn(data))
    }
}
