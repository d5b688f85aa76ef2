import NIOCore

/// One inbound WebSocket message or the end of the socket.
public enum TransportEvent: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
    /// The socket is gone. `code` is the peer's close code; nil when the connection dropped without a
    /// close frame (network loss, process killed). `reason` is the close frame's text, sanitised.
    case closed(code: Int?, reason: String? = nil)
    /// This client ended the socket (close 1009): the gateway sent a message larger than
    /// `limitBytes`, this connection's inbound limit. Last, like `closed`; nothing received after the
    /// oversized message is delivered, so no reply is shown with a part missing.
    case tooLarge(limitBytes: Int)
}

/// An open WebSocket. Inbound messages arrive in order on ``events``, which ends after `.closed`.
///
/// The events are a bounded buffer: while the reader is behind, the socket is not read (see
/// `InboundQueue`), so reading slowly is how a consumer pushes back on the gateway.
public protocol WebSocketConnection: Sendable {
    var events: TransportEvents { get }
    /// What is buffered and when anything last arrived (pongs included), for the liveness probe.
    var flow: TransportFlowStats { get }
    var lastReceived: ContinuousClock.Instant { get }
    /// Sends a WebSocket ping: any answer (the pong, or any other frame) shows the peer is alive.
    func sendPing() async
    func send(text: String) async throws(TransportError)
    /// Queues `text` behind every frame queued before it and returns at once; `completion` learns
    /// whether it was written. Frames queued from one task (or actor) leave in the order queued.
    func write(text: String, completion: @escaping @Sendable (Bool) -> Void)
    /// Like ``write(text:completion:)`` for a text frame already encoded as UTF-8 bytes: large frames
    /// (attachments) are built in their final buffer and handed over without another copy. A transport
    /// may send a large one as fragments (the live one does), keeping the order of frames.
    func write(utf8Frame: ByteBuffer, completion: @escaping @Sendable (Bool) -> Void)
    /// Sends a close frame with `code` and lets the socket go.
    func close(code: Int) async
}

extension WebSocketConnection {
    /// For transports that only take strings (test doubles): decodes the bytes and writes the text.
    public func write(utf8Frame: ByteBuffer, completion: @escaping @Sendable (Bool) -> Void) {
        write(text: String(buffer: utf8Frame), completion: completion)
    }
}

/// Opens WebSocket connections. The live implementation is ``LiveWebSocketTransport``; tests may
/// substitute their own.
public protocol WebSocketTransport: Sendable {
    /// Opens a socket to `url`. The upgrade request must not carry an `Origin` header: a gateway that
    /// sees one treats the client as a browser (origin check, browser rate limits, no local pairing).
    /// - Parameters:
    ///   - url: the gateway's address (`ws://` or `wss://`, host, port and path).
    ///   - maxFrameSize: the largest inbound message accepted; larger ones close the socket (1009).
    func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection
}

/// Why a socket could not be opened or used.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host name did not resolve.
    case hostNotFound(host: String)
    /// Nothing accepted the TCP connection.
    case connectionRefused(host: String, port: Int)
    /// TCP connected but TLS failed (certificate, protocol).
    case tlsFailed(reason: String)
    /// The certificate was seen but not trusted: first use, a changed pin, expired. Needs a person.
    case tlsTrust(TLSTrustFailure)
    /// The server answered the upgrade request with an HTTP status instead of switching protocols.
    case upgradeRejected(status: Int)
    /// No socket within the connect timeout.
    case timedOut
    /// Writing to a socket that is closed.
    case notConnected
    case other(String)

    /// The TLS handshake failed or the certificate was not trusted.
    public var isTLSFailure: Bool {
        switch self {
        case .tlsFailed, .tlsTrust: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .hostNotFound(let host): return "the host \(host) could not be found"
        case .connectionRefused(let host, let port): return "nothing is listening at \(host):\(port)"
        case .tlsFailed(let reason): return "the TLS handshake failed: \(reason)"
        case .tlsTrust(let failure): return failure.message
        case .upgradeRejected(let status): return "the server refused the WebSocket upgrade (HTTP \(status))"
        case .timedOut: return "the connection attempt timed out"
        case .notConnected: return "the socket is closed"
        case .other(let text): return text
        }
    }
}
