import Testing

@testable import OpenClawGateway

/// The opening handshake's rules as values: the request, where an answer's head ends, and which answers
/// open a WebSocket.
@Suite("WebSocket opening handshake")
struct WebSocketHandshakeTests {
    /// RFC 6455 §1.3's own example.
    private let handshake = WebSocketHandshake(keyBytes: Array("the sample nonce".utf8))

    private func answer(_ lines: String...) -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    @Test func theAcceptValueIsTheRFCsExample() {
        #expect(handshake.key == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(handshake.expectedAccept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func twoRandomHandshakesHaveDifferentSixteenByteKeys() {
        let first = WebSocketHandshake.random()
        let second = WebSocketHandshake.random()
        #expect(first.key != second.key)
        #expect(first.key.count == 24 && first.key.hasSuffix("=="))
    }

    @Test func theRequestCarriesTheKeyAndNoOrigin() throws {
        let request = try handshake.request(target: "/ws?a=1", hostHeader: "[::1]:8443")
        #expect(
            request == "GET /ws?a=1 HTTP/1.1\r\nHost: [::1]:8443\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    }

    @Test(arguments: ["/a b", "/a\r\nX-Injected: 1", "/a\u{7F}", "/a\tb"])
    func aTargetThatWouldBreakTheRequestIsRefused(target: String) {
        #expect(throws: WebSocketUpgradeFailure.unsafeAddress) {
            try handshake.request(target: target, hostHeader: "gateway.local")
        }
        #expect(throws: WebSocketUpgradeFailure.unsafeHost) {
            try handshake.request(target: "/", hostHeader: "gateway.local" + target)
        }
    }

    @Test func anEmptyTargetOrHostIsRefused() {
        #expect(throws: WebSocketUpgradeFailure.unsafeAddress) { try handshake.request(target: "", hostHeader: "h") }
        #expect(throws: WebSocketUpgradeFailure.unsafeHost) { try handshake.request(target: "/", hostHeader: "") }
    }

    @Test func theHeadEndsAtTheFirstBlankLineWithCRLFOrLF() {
        func length(_ text: String, from: Int = 0) -> Int? {
            Array(text.utf8).withUnsafeBytes { WebSocketHandshake.headLength(in: $0, from: from) }
        }
        #expect(length("HTTP/1.1 101 OK\r\nA: b\r\n\r\nframe") == 25)
        #expect(length("HTTP/1.1 101 OK\nA: b\n\nframe") == 22)
        #expect(length("HTTP/1.1 101 OK\r\nA: b\r\n") == nil)
        #expect(length("HTTP/1.1 101 OK\r\nA: b\r\n\r") == nil)
        // Resumed where the last read stopped, a terminator split across reads is still found.
        let whole = "HTTP/1.1 101 OK\r\nA: b\r\n\r\n"
        for split in 1..<whole.utf8.count {
            #expect(length(whole, from: split) == whole.utf8.count, "resumed at \(split)")
        }
    }

    @Test func aWebSocketAnswerPasses() throws {
        try handshake.check(
            answerHead: answer(
                "HTTP/1.1 101 Switching Protocols", "upgrade: WebSocket", "Connection: Upgrade",
                "Sec-WebSocket-Accept:  s3pPLMBiTxaQ9kYGzzhZRbK+xOo= "))
    }

    @Test func aStatusOtherThan101IsARefusalWithItsStatus() {
        #expect {
            try handshake.check(answerHead: answer("HTTP/1.1 401 Unauthorized", "Content-Length: 5"))
        } throws: { ($0 as? UpgradeRefused)?.status == 401 }
        #expect {
            try handshake.check(answerHead: answer("HTTP/1.0 200"))
        } throws: { ($0 as? UpgradeRefused)?.status == 200 }
    }

    @Test func anAnswerWithTheWrongAcceptIsRefused() {
        #expect(throws: WebSocketUpgradeFailure.wrongAccept) {
            try handshake.check(
                answerHead: answer(
                    "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket",
                    "Sec-WebSocket-Accept: dGhlIHNhbXBsZSBub25jZQ=="))
        }
        #expect(throws: WebSocketUpgradeFailure.wrongAccept) {
            try handshake.check(answerHead: answer("HTTP/1.1 101 Switching Protocols", "Upgrade: websocket"))
        }
    }

    @Test func aSwitchToAnotherProtocolIsRefused() {
        #expect(throws: WebSocketUpgradeFailure.notWebSocket) {
            try handshake.check(
                answerHead: answer(
                    "HTTP/1.1 101 Switching Protocols", "Upgrade: h2c",
                    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        }
    }

    @Test func anExtensionThatWasNotAskedForIsRefused() {
        #expect(throws: WebSocketUpgradeFailure.unrequested("sec-websocket-extensions")) {
            try handshake.check(
                answerHead: answer(
                    "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket",
                    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
                    "Sec-WebSocket-Extensions: permessage-deflate"))
        }
    }

    @Test(arguments: [
        "SSH-2.0-OpenSSH_9.6", "HTTP/1.1 1O1 Switching", "HTTP/2 101", "HTTP/1.1 101 OK\r\nno colon here",
    ])
    func somethingThatIsNotAnHTTPAnswerIsMalformed(head: String) {
        #expect(throws: WebSocketUpgradeFailure.malformedAnswer) {
            try handshake.check(answerHead: answer(head))
        }
    }

    @Test func aRepeatedUpgradeOrAcceptIsRefused() {
        let accept = "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        #expect(throws: WebSocketUpgradeFailure.wrongAccept) {
            try handshake.check(
                answerHead: answer("HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", accept, accept))
        }
        #expect(throws: WebSocketUpgradeFailure.notWebSocket) {
            try handshake.check(
                answerHead: answer(
                    "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Upgrade: websocket", accept))
        }
    }

    @Test func a101WithoutUpgradeOrWithASubprotocolIsRefused() {
        let accept = "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        #expect(throws: WebSocketUpgradeFailure.notWebSocket) {
            try handshake.check(answerHead: answer("HTTP/1.1 101 Switching Protocols", accept))
        }
        #expect(throws: WebSocketUpgradeFailure.unrequested("sec-websocket-protocol")) {
            try handshake.check(
                answerHead: answer(
                    "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", accept, "Sec-WebSocket-Protocol: chat"))
        }
    }

    @Test func anAnswerIsToldNotToBeHTTPAtItsFirstBytes() {
        func may(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes(WebSocketHandshake.mayBeHTTPAnswer) }
        #expect(may(""))
        #expect(may("H"))
        #expect(may("HTTP/"))
        #expect(may("HTTP/1.1 101"))
        #expect(!may("S"))
        #expect(!may("SSH-2.0-OpenSSH"))
        #expect(!may("\u{15}\u{03}\u{03}"))
        #expect(!may("http/1.1 101"))
    }
}
