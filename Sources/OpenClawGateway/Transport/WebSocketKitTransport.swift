import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket
import OpenClawProtocol
import Synchronization
import WebSocketKit

#if canImport(Network)
    import Network
    import NIOTransportServices
#endif

/// The live transport: vapor/websocket-kit on SwiftNIO (NIOSSL for `wss://`).
///
/// Chosen because its upgrade request carries no `Origin` header (checked on this machine), unlike
/// swift-websocket's `WSClient`, and because Foundation's `URLSessionWebSocketTask` has no WebSocket
/// support on Linux.
public struct WebSocketKitTransport: WebSocketTransport {
    let group: any EventLoopGroup
    /// How `wss://` certificates are trusted; nil leaves it to the system trust store alone.
    public let tlsTrust: TLSTrust?

    /// Uses a process-wide event loop group: Network.framework's on Apple platforms (so `wss://` uses the
    /// system TLS and proxies), NIO's POSIX one elsewhere.
    public init(tlsTrust: TLSTrust? = nil) {
        #if canImport(Network)
            self.group = NIOTSEventLoopGroup.singleton
        #else
            self.group = MultiThreadedEventLoopGroup.singleton
        #endif
        self.tlsTrust = tlsTrust
    }

    public init(group: any EventLoopGroup, tlsTrust: TLSTrust? = nil) {
        self.group = group
        self.tlsTrust = tlsTrust
    }

    public func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        // Before any socket: a pinned host is never spoken to in clear text (the token would go with it).
        do {
            if let pinnedAddress = try tlsTrust?.pinnedSecureAddress(forPlaintext: url) {
                throw TransportError.tlsTrust(.pinnedHostOverPlaintext(host: url.host, pinnedAddress: pinnedAddress))
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw .other("the pinned certificates could not be read: \(error)")
        }
        let queue = InboundQueue()
        // NIO's decoder refuses a frame over the limit from its header, before buffering its payload, so
        // memory stays bounded by the limit; `InboundGuard` turns that refusal into the 1009 report (NIO
        // alone would just close the channel, which would look like a dropped connection).
        let nioLimit = Int(min(Int64(UInt32.max), Int64(maxFrameSize)))
        var configuration = WebSocketClient.Configuration(maxFrameSize: nioLimit)
        // A backstop only: `InboundGuard` closes with 1009 before the aggregator's own limits.
        configuration.maxAccumulatedFrameSize = Int(min(Int64(UInt32.max), Int64(maxFrameSize) * 2))
        configuration.maxAccumulatedFrameCount = InboundGuard.maxFragments * 2
        // websocket-kit may complete the connect future before it calls `onUpgrade`; the socket is taken
        // from this promise, which `onUpgrade` fulfils.
        let upgraded = group.any().makePromise(of: WebSocket.self)
        let onUpgrade: @Sendable (WebSocket) -> Void = { socket in
            Self.wire(socket, queue: queue, maxFrameSize: maxFrameSize)
            upgraded.succeed(socket)
        }
        let rule: TLSTrust.Rule
        do {
            rule = url.isSecure ? try tlsTrust?.rule(for: url) ?? .system : .system
        } catch {
            queue.finish()
            throw .other("the pinned certificates could not be read: \(error)")
        }
        let socket: WebSocket
        switch rule {
        case .system:
            let client = WebSocketClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
            let future = client.connect(
                scheme: url.scheme, host: url.host, port: url.port, path: url.path, query: url.query, headers: [:],
                onUpgrade: onUpgrade
            )
            future.cascadeFailure(to: upgraded)
            do {
                try await future.get()
                socket = try await upgraded.futureResult.get()
            } catch {
                queue.finish()
                let failure = Self.classify(error, url: url)
                guard case .tlsFailed = failure, let tlsTrust else { throw failure }
                throw await explainRefusal(url: url, trust: tlsTrust) ?? failure
            }
        case .fingerprint(let pinned, let expected, _):
            let verdict = PinnedTLSConnector.Verdict()
            let future = PinnedTLSConnector.connect(
                url: url, group: group,
                check: .fingerprint(pinned: pinned, expected: expected, now: tlsTrust?.now() ?? Date()),
                verdict: verdict, webSocket: Self.webSocketConfiguration(configuration), maxFrameSize: nioLimit,
                onUpgrade: onUpgrade
            )
            future.cascadeFailure(to: upgraded)
            do {
                try await future.get()
                socket = try await upgraded.futureResult.get()
            } catch {
                queue.finish()
                if let failure = verdict.failure { throw .tlsTrust(failure) }
                throw Self.classify(error, url: url)
            }
            if let certificate = verdict.certificate, let tlsTrust {
                do {
                    try tlsTrust.remember(certificate, for: url)
                } catch {
                    _ = try? await socket.close(code: .goingAway).get()
                    queue.finish()
                    throw .other("the certificate was accepted but could not be pinned: \(error)")
                }
            }
        }
        return WebSocketKitConnection(socket: socket, queue: queue)
    }

    /// After the system trust store refused a certificate: connects once more only to look at it (and
    /// refuses it again), so the person is shown its fingerprint and can decide to pin it.
    private func explainRefusal(url: GatewayURL, trust: TLSTrust) async -> TransportError? {
        let verdict = PinnedTLSConnector.Verdict()
        let configuration = WebSocket.Configuration()
        let probe = PinnedTLSConnector.connect(
            url: url, group: group, check: .recordOnly, verdict: verdict, webSocket: configuration,
            maxFrameSize: 1 << 14, onUpgrade: { socket in _ = socket.close() }
        )
        _ = try? await probe.get()
        guard let certificate = verdict.certificate else { return nil }
        if !certificate.isValid(at: trust.now()) {
            return .tlsTrust(.outsideValidity(host: url.host, certificate: certificate))
        }
        return .tlsTrust(.firstUse(host: url.host, certificate: certificate))
    }

    private static func webSocketConfiguration(_ client: WebSocketClient.Configuration) -> WebSocket.Configuration {
        var configuration = WebSocket.Configuration()
        configuration.maxAccumulatedFrameSize = client.maxAccumulatedFrameSize
        configuration.maxAccumulatedFrameCount = client.maxAccumulatedFrameCount
        configuration.minNonFinalFragmentSize = client.minNonFinalFragmentSize
        return configuration
    }

    /// Runs on the socket's event loop, before any frame is read.
    private static func wire(_ socket: WebSocket, queue: InboundQueue, maxFrameSize: Int) {
        socket.onText { socket, text in
            guard !queue.oversized else { return }
            guard text.utf8.count <= maxFrameSize else {
                queue.markOversized(limitBytes: maxFrameSize)
                _ = socket.close(code: .messageTooLarge)
                return
            }
            queue.push(.text(text))
        }
        socket.onBinary { socket, buffer in
            guard !queue.oversized else { return }
            guard buffer.readableBytes <= maxFrameSize else {
                queue.markOversized(limitBytes: maxFrameSize)
                _ = socket.close(code: .messageTooLarge)
                return
            }
            queue.push(.binary(Array(buffer.readableBytesView)))
        }
        socket.onPong { _, _ in queue.noteActivity() }
        socket.onClose.whenComplete { _ in
            let code = socket.closeCode.map { Int(UInt16(webSocketErrorCode: $0)) }
            // 1005/1006 are local reports of "no status" and "abnormal closure"; 1011 is what websocket-kit
            // records when it closes the socket itself after an I/O error (connection reset). In every
            // case the peer sent nothing: the connection was lost. (Gateways never send 1011.)
            let peerCode = (code == 1005 || code == 1006 || code == 1011) ? nil : code
            // After an oversized message the events have already ended (`tooLarge`): this push is ignored.
            queue.push(.closed(code: peerCode, reason: peerCode == nil ? nil : queue.peerCloseReason))
        }
        installGuard(on: socket, queue: queue, maxFrameSize: maxFrameSize)
    }

    /// Puts ``InboundGuard`` between NIO's frame decoder and websocket-kit's aggregator.
    ///
    /// websocket-kit keeps its channel internal, so it is found by reflection. Should a future
    /// websocket-kit rename it, the socket still works with the per-message size check above but
    /// without read pausing and ping limiting; the flow-control tests would fail and say so.
    private static func installGuard(on socket: WebSocket, queue: InboundQueue, maxFrameSize: Int) {
        guard let channel = Mirror(reflecting: socket).descendant("channel") as? any Channel else { return }
        // Close with 1009 and let the socket go at once: a peer that keeps streaming fragments would
        // never answer the close frame.
        let guardHandler = InboundGuard(maxMessageBytes: maxFrameSize, queue: queue) {
            socket.close(code: .messageTooLarge).whenComplete { _ in channel.close(promise: nil) }
        }
        do {
            let pipeline = channel.pipeline.syncOperations
            if (try? pipeline.handler(type: InboundGuard.self)) != nil { return }
            let aggregator = try pipeline.handler(type: NIOWebSocketFrameAggregator.self)
            try pipeline.addHandler(guardHandler, position: .before(aggregator))
        } catch {
            return
        }
        let bound = NIOLoopBound(guardHandler, eventLoop: channel.eventLoop)
        let eventLoop = channel.eventLoop
        queue.onResume {
            eventLoop.execute { bound.value.resumeReading() }
        }
    }

    /// What went wrong, from the error's type: SwiftNIO's and websocket-kit's errors carry what
    /// happened (the refused connection's errno, the failed DNS queries, the timeout) as values.
    static func classify(_ error: any Error, url: GatewayURL) -> TransportError {
        switch error {
        case let clientError as WebSocketClient.Error:
            if case .invalidResponseStatus(let head) = clientError {
                return .upgradeRejected(status: Int(head.status.code))
            }
            return .other(String(describing: clientError))
        case let connection as NIOConnectionError:
            // Happy Eyeballs: no address to try means the name did not resolve.
            if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return .hostNotFound(host: url.host)
            }
            return .connectionRefused(host: url.host, port: url.port)
        case let channelError as ChannelError:
            if case .connectTimeout = channelError { return .timedOut }
            return .connectionRefused(host: url.host, port: url.port)
        case let io as IOError where io.errnoCode == ECONNREFUSED:
            return .connectionRefused(host: url.host, port: url.port)
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            return .hostNotFound(host: url.host)
        case is NIOSSLError, is BoringSSLError:
            return .tlsFailed(reason: String(describing: error))
        default:
            #if canImport(Network)
                if let network = error as? NWError { return classify(network, url: url) }
            #endif
            return .other(String(describing: error))
        }
    }

    #if canImport(Network)
        /// Network.framework's errors (the transport on Apple platforms).
        static func classify(_ error: NWError, url: GatewayURL) -> TransportError {
            switch error {
            case .posix(.ECONNREFUSED): .connectionRefused(host: url.host, port: url.port)
            case .posix(.ETIMEDOUT): .timedOut
            case .dns: .hostNotFound(host: url.host)
            case .tls: .tlsFailed(reason: String(describing: error))
            default: .other(String(describing: error))
            }
        }
    #endif
}
