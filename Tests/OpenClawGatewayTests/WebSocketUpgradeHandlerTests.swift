import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import OpenClawGateway

/// The upgrade handler on an in-memory channel, where every way of cutting the server's bytes into reads
/// can be tried: the first frames after the answer must come out whole and in order, however they arrive.
@Suite("WebSocket upgrade handler, read by read")
struct WebSocketUpgradeHandlerTests {
    /// RFC 6455 §1.3's key, whose accept value is known.
    private static let handshake = WebSocketHandshake(keyBytes: Array("the sample nonce".utf8))
    private static let answer = Array(
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n").utf8)

    private struct Outcome {
        var opened = 0
        var failures: [String] = []
    }

    private final class Record: @unchecked Sendable {
        var outcome = Outcome()
    }

    /// A channel with the handler, active, its request already read off.
    private static func channel(record: Record, maxFrameSize: Int = 1 << 16) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        let handler = WebSocketUpgradeHandler(
            handshake: handshake, request: try handshake.request(target: "/", hostHeader: "gateway"),
            maxFrameSize: maxFrameSize,
            opened: { _ in record.outcome.opened += 1 },
            failed: { record.outcome.failures.append(String(describing: $0)) })
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let request = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(String(buffer: request).hasPrefix("GET / HTTP/1.1\r\n"))
        return channel
    }

    private static func textFrame(_ text: String) -> [UInt8] {
        [0x81, UInt8(text.utf8.count)] + Array(text.utf8)
    }

    private static func texts(in channel: EmbeddedChannel) throws -> [String] {
        var texts: [String] = []
        while let frame = try channel.readInbound(as: WebSocketFrame.self) {
            texts.append(String(buffer: frame.unmaskedData))
        }
        return texts
    }

    @Test func theFramesAfterTheAnswerComeOutWholeWhereverTheReadsAreCut() throws {
        let bytes = Self.answer + Self.textFrame("challenge") + Self.textFrame("second")
        for cut in 1..<bytes.count {
            let record = Record()
            let channel = try Self.channel(record: record)
            try channel.writeInbound(ByteBuffer(bytes: bytes[..<cut]))
            try channel.writeInbound(ByteBuffer(bytes: bytes[cut...]))
            #expect(try Self.texts(in: channel) == ["challenge", "second"], "cut at \(cut)")
            #expect(record.outcome.opened == 1 && record.outcome.failures.isEmpty, "cut at \(cut)")
            _ = try channel.finish()
        }
    }

    @Test func anAnswerAByteAtATimeOpensOnceAndPassesItsFrame() throws {
        let record = Record()
        let channel = try Self.channel(record: record)
        for byte in Self.answer + Self.textFrame("challenge") {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
        }
        #expect(try Self.texts(in: channel) == ["challenge"])
        #expect(record.outcome.opened == 1 && record.outcome.failures.isEmpty)
        _ = try channel.finish()
    }

    @Test func somethingElseThanHTTPIsRefusedAtItsFirstByte() throws {
        let record = Record()
        let channel = try Self.channel(record: record)
        try channel.writeInbound(ByteBuffer(string: "S"))
        #expect(record.outcome.failures == [WebSocketUpgradeFailure.malformedAnswer.description])
        #expect(!channel.isActive)
    }

    /// NIO's decoder refuses a frame over the limit from its header; the close frame that answers it is a
    /// client's, so masked (RFC 6455 §5.1: a server fails a connection on an unmasked frame).
    @Test func theCloseFrameForAnOversizedFrameIsMasked() throws {
        let record = Record()
        let channel = try Self.channel(record: record, maxFrameSize: 1024)
        // A text frame announcing 1 MiB (64-bit length form).
        let header: [UInt8] = [0x81, 127, 0, 0, 0, 0, 0, 0x10, 0, 0]
        _ = try? channel.writeInbound(ByteBuffer(bytes: Self.answer + header))
        let close = try #require(try channel.readOutbound(as: ByteBuffer.self))
        let first = try #require(close.getInteger(at: close.readerIndex, as: UInt8.self))
        let second = try #require(close.getInteger(at: close.readerIndex + 1, as: UInt8.self))
        #expect(first == 0x88, "a close frame")
        #expect(second & 0x80 != 0, "masked")
    }
}
