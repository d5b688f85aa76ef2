import Crypto
import OpenClawProtocol

/// The client's half of the WebSocket opening handshake (RFC 6455 §4.1) as values: the request's bytes,
/// where the server's answer ends, and whether that answer opens a WebSocket.
///
/// Opening a socket this way costs a few string operations. SwiftNIO's HTTP client upgrade put four
/// handlers in the pipeline and took three out again for every socket; with the runtime's first look-ups
/// of their types that was about a tenth of a one-shot command's instructions.
struct WebSocketHandshake: Sendable {
    /// The longest answer head read. A gateway's answer is a few hundred bytes, a proxy's a few more;
    /// a peer that sends more without ending its head is not opening a WebSocket.
    static let maxAnswerHeadBytes = 16 * 1024
    /// RFC 6455 §1.3: appended to the key before hashing, so only a WebSocket server answers it right.
    static let acceptSuffix = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The request's `Sec-WebSocket-Key`: 16 random bytes, base64.
    let key: String

    init(keyBytes: [UInt8]) {
        key = Base64.encode(keyBytes)
    }

    /// A handshake with a key from the system's generator.
    static func random() -> WebSocketHandshake {
        let words = [SecureRandomPool.next(), SecureRandomPool.next()]
        let bytes = words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
        return WebSocketHandshake(keyBytes: bytes)
    }

    /// The `Sec-WebSocket-Accept` a WebSocket server answers this key with.
    var expectedAccept: String {
        Base64.encode(Array(Insecure.SHA1.hash(data: Array((key + Self.acceptSuffix).utf8))))
    }

    /// The upgrade request: the target, the Host and the upgrade's own headers. No `Origin`: a gateway
    /// that sees one treats the client as a browser. A target or host with a space or a control character
    /// is refused rather than written, since it would end the request line or a header early.
    func request(target: String, hostHeader: String) throws(WebSocketUpgradeFailure) -> String {
        guard Self.isPrintable(hostHeader) else { throw .unsafeHost }
        guard Self.isPrintable(target) else { throw .unsafeAddress }
        return "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    /// The length of the answer's head, its blank line included, once `bytes` hold all of it; nil while
    /// it goes on. Scanning resumes at `from` (bytes already searched), so an answer trickled a byte at a
    /// time is read in linear time. Lines may end in CRLF or, leniently, LF alone.
    static func headLength(in bytes: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
        var index = max(0, from - 2)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var next = index + 1
                if next < bytes.count, bytes[next] == UInt8(ascii: "\r") { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
            }
            index += 1
        }
        return nil
    }

    /// Whether `bytes`, the start of an answer, can still become an HTTP response (`HTTP/`).
    static func mayBeHTTPAnswer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        zip(bytes, "HTTP/".utf8).allSatisfy { $0 == $1 }
    }

    /// Checks the answer's head (status line and headers, as ``headLength(in:from:)`` found them).
    /// Any status but 101 is ``UpgradeRefused``; a 101 must name `websocket` in `Upgrade` and carry this
    /// key's `Sec-WebSocket-Accept`. Extensions and subprotocols were not asked for, so a server that
    /// claims one would send frames this client cannot read: refused too. `Connection: Upgrade`, which
    /// RFC 6455 also asks of the server, is not required: the accept value already proves a WebSocket
    /// server, and some proxies rewrite `Connection`.
    func check(answerHead: some Collection<UInt8>) throws {
        // Split as bytes: in a `String`, CR LF is one character.
        var lines = answerHead.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Substring(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }[...]
        guard let statusLine = lines.popFirst() else { throw WebSocketUpgradeFailure.malformedAnswer }
        let status = try Self.status(of: statusLine)
        guard status == 101 else { throw UpgradeRefused(status: status) }
        var upgrade: String?
        var accept: String?
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw WebSocketUpgradeFailure.malformedAnswer }
            let name = line[..<colon].lowercased()
            // The spaces and tabs HTTP allows around a header's value.
            let value = line[line.index(after: colon)...].trimming(.scalars(" \t"))
            // Twice is ambiguous: which one a proxy or the server meant is not for this end to guess.
            switch name {
            case "upgrade":
                guard upgrade == nil else { throw WebSocketUpgradeFailure.notWebSocket }
                upgrade = value
            case "sec-websocket-accept":
                guard accept == nil else { throw WebSocketUpgradeFailure.wrongAccept }
                accept = value
            case "sec-websocket-extensions", "sec-websocket-protocol":
                if !value.isEmpty { throw WebSocketUpgradeFailure.unrequested(name) }
            default: break
            }
        }
        guard let upgrade, upgrade.lowercased() == "websocket" else { throw WebSocketUpgradeFailure.notWebSocket }
        guard accept == expectedAccept else { throw WebSocketUpgradeFailure.wrongAccept }
    }

    /// The status code of `HTTP/1.x NNN reason`.
    private static func status(of line: Substring) throws(WebSocketUpgradeFailure) -> Int {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let status = Int(parts[1])
        else { throw .malformedAnswer }
        return status
    }

    private static func isPrintable(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }
}

/// Why the server's answer to the upgrade request did not open a WebSocket (a status other than 101 is
/// ``UpgradeRefused``).
enum WebSocketUpgradeFailure: Error, Equatable, CustomStringConvertible {
    /// The host holds a space or a control character: no name server knows it, and a header cannot carry it.
    case unsafeHost
    /// The path or query holds a space or a control character, which a request line cannot carry.
    case unsafeAddress
    /// The answer's head went on past ``WebSocketHandshake/maxAnswerHeadBytes``.
    case answerTooLarge
    /// Not an HTTP response.
    case malformedAnswer
    /// A 101 that does not switch to `websocket`.
    case notWebSocket
    /// The `Sec-WebSocket-Accept` is missing or not this request's.
    case wrongAccept
    /// The server claims an extension or subprotocol that was not asked for (the header's name).
    case unrequested(String)

    var description: String {
        let answer = "the server's answer to the WebSocket upgrade"
        return switch self {
        case .unsafeHost: "the gateway's host name has a space or a control character"
        case .unsafeAddress: "the gateway address has a space or a control character in its path or query"
        case .answerTooLarge: "\(answer) went on past \(WebSocketHandshake.maxAnswerHeadBytes / 1024) KiB of headers"
        case .malformedAnswer: "\(answer) is not an HTTP response: is this address a gateway?"
        case .notWebSocket: "\(answer) switched to another protocol than WebSocket"
        case .wrongAccept:
            "\(answer) has no valid Sec-WebSocket-Accept: a proxy between here and the gateway may not pass WebSockets"
        case .unrequested(let name): "\(answer) claims \(name), which this client did not ask for"
        }
    }
}
