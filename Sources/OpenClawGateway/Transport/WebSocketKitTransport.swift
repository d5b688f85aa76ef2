import NIOCore
import NIOPosix
import NIOWebSocket
import OpenClawProtocol
import Synchronization
import WebSocketKit

#if canImport(Network)
    import NIOTransportServices
#endif

/// The live transport: vapor/websocket-kit on SwiftNIO (NIOSSL for `wss://`).
///
/// Chosen because its upgrade request carries no `Origin` header (checked on this machine), unlike
/// swift-websocket's `WSClient`, and because Foundation's `URLSessionWebSocketTask` has no WebSocket
/// support on Linux.
public struct WebSocketKitTransport: WebSocketTransport {
    private let group: any EventLoopGroup

    /// Uses a process-wide event loop group: Network.framework's on Apple platforms (so `wss://` uses the
    /// system TLS and proxies), NIO's POSIX one elsewhere.
    public init() {
        #if canImport(Network)
            self.group = NIOTSEventLoopGroup.singleton
        #else
            self.group = MultiThreadedEventLoopGroup.singleton
        #endif
    }

    public init(group: any EventLoopGroup) {
        self.group = group
    }

    public func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        let (stream, continuation) = AsyncStream.makeStream(of: TransportEvent.self, bufferingPolicy: .unbounded)
        // NIO rejects frames above its own limit by closing the channel without telling websocket-kit why,
        // which would look like a dropped connection. So NIO gets a wider ceiling and the limit is enforced
        // here, where an oversized message can be reported as what it is (1009).
        let nioLimit = Int(min(Int64(UInt32.max), Int64(maxFrameSize) * 4))
        let configuration = WebSocketClient.Configuration(maxFrameSize: nioLimit)
        let client = WebSocketClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        // websocket-kit may complete the connect future before it calls `onUpgrade`; the socket is taken
        // from this promise, which `onUpgrade` fulfils.
        let upgraded = group.any().makePromise(of: WebSocket.self)
        let future = client.connect(
            scheme: url.scheme,
            host: url.host,
            port: url.port,
            path: url.path,
            query: url.query,
            headers: [:]
        ) { socket in
            let oversized = Mutex(false)
            socket.onText { socket, text in
                guard text.utf8.count <= maxFrameSize else {
                    oversized.withLock { $0 = true }
                    _ = socket.close(code: .messageTooLarge)
                    return
                }
                continuation.yield(.text(text))
            }
            socket.onBinary { socket, buffer in
                guard buffer.readableBytes <= maxFrameSize else {
                    oversized.withLock { $0 = true }
                    _ = socket.close(code: .messageTooLarge)
                    return
                }
                continuation.yield(.binary(Array(buffer.readableBytesView)))
            }
            socket.onClose.whenComplete { _ in
                let code = socket.closeCode.map { Int(UInt16(webSocketErrorCode: $0)) }
                // 1005/1006 are local reports of "no status" and "abnormal closure"; 1011 is what websocket-kit
                // records when it closes the socket itself after an I/O error (connection reset). In every
                // case the peer sent nothing: the connection was lost. (Gateways never send 1011.)
                let peerCode = (code == 1005 || code == 1006 || code == 1011) ? nil : code
                let tooLarge = oversized.withLock { $0 }
                continuation.yield(.closed(code: tooLarge ? GatewayCloseCode.messageTooBig : peerCode))
                continuation.finish()
            }
            upgraded.succeed(socket)
        }
        future.cascadeFailure(to: upgraded)
        let socket: WebSocket
        do {
            try await future.get()
            socket = try await upgraded.futureResult.get()
        } catch {
            continuation.finish()
            throw Self.classify(error, url: url)
        }
        return WebSocketKitConnection(socket: socket, events: stream)
    }

    static func classify(_ error: any Error, url: GatewayURL) -> TransportError {
        if let clientError = error as? WebSocketClient.Error {
            switch clientError {
            case .invalidResponseStatus(let head): return .upgradeRejected(status: Int(head.status.code))
            default: return .other(String(describing: clientError))
            }
        }
        if error is NIOConnectionError || error is ChannelError {
            let text = String(describing: error)
            if text.contains("connectionRefused") || text.contains("Connection refused") {
                return .connectionRefused(host: url.host, port: url.port)
            }
            if text.contains("resolution") || text.contains("dnsAError") || text.contains("dnsAAAAError")
                || text.contains("SocketAddressError")
            {
                return .hostNotFound(host: url.host)
            }
            if text.contains("connectTimeout") { return .timedOut }
            return .connectionRefused(host: url.host, port: url.port)
        }
        if error is SocketAddressError { return .hostNotFound(host: url.host) }
        let typeName = String(reflecting: type(of: error))
        if typeName.contains("NIOSSL") || typeName.contains("BoringSSL") {
            return .tlsFailed(reason: String(describing: error))
        }
        return .other(String(describing: error))
    }
}

/// One websocket-kit socket.
final class WebSocketKitConnection: WebSocketConnection {
    private let socket: WebSocket
    let events: AsyncStream<TransportEvent>

    init(socket: WebSocket, events: AsyncStream<TransportEvent>) {
        self.socket = socket
        self.events = events
    }

    func send(text: String) async throws(TransportError) {
        guard !socket.isClosed else { throw .notConnected }
        let promise = socket.eventLoop.makePromise(of: Void.self)
        socket.send(text, promise: promise)
        do {
            try await promise.futureResult.get()
        } catch {
            throw .notConnected
        }
    }

    func close(code: Int) async {
        guard !socket.isClosed else { return }
        try? await socket.close(code: WebSocketErrorCode(codeNumber: code)).get()
    }
}
