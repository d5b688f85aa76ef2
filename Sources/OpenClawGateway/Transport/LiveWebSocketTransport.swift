import NIOCore
import NIOPosix
import NIOSSL
import OpenClawProtocol

#if canImport(Network)
    import Network
    import NIOTransportServices
#endif

/// The live transport: a WebSocket client on SwiftNIO's own WebSocket codec (NIOSSL for `wss://`).
///
/// Written here rather than taken from a library: its upgrade request must carry no `Origin` header
/// (swift-websocket's `WSClient` always adds one), Foundation's `URLSessionWebSocketTask` has no WebSocket
/// support on Linux, and websocket-kit brings Foundation's ICU into the binary (tens of megabytes) and
/// keeps its channel private, which the read pausing and the pinned certificates need.
public struct LiveWebSocketTransport: WebSocketTransport {
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
        let check: TLSVerification.Check?
        do {
            if let pinnedAddress = try tlsTrust?.pinnedSecureAddress(forPlaintext: url) {
                throw TransportError.tlsTrust(.pinnedHostOverPlaintext(host: url.host, pinnedAddress: pinnedAddress))
            }
            check = try ClientTLS.check(for: url, trust: tlsTrust)
        } catch let error as TransportError {
            throw error
        } catch {
            throw .other("the pinned certificates could not be read: \(error)")
        }
        let queue = InboundQueue()
        let verdict = TLSVerification.Verdict()
        let options = WebSocketDialer.Options(maxMessageBytes: maxFrameSize, check: check, verdict: verdict)
        let connection: LiveWebSocketConnection
        do {
            connection = try await WebSocketDialer.connect(url: url, group: group, options: options, queue: queue)
        } catch {
            queue.finish()
            if let failure = verdict.failure { throw .tlsTrust(failure) }
            let failure = Self.classify(error, url: url)
            guard check == nil, case .tlsFailed = failure, let tlsTrust else { throw failure }
            throw await explainRefusal(url: url, trust: tlsTrust) ?? failure
        }
        if check != nil, let certificate = verdict.certificate, let tlsTrust {
            do {
                try tlsTrust.remember(certificate, for: url)
            } catch {
                await connection.close(code: 1001)
                queue.finish()
                throw .other("the certificate was accepted but could not be pinned: \(error)")
            }
        }
        return connection
    }

    /// After the system trust store refused a certificate: connects once more only to look at it (and
    /// refuses it again), so the person is shown its fingerprint and can decide to pin it.
    private func explainRefusal(url: GatewayURL, trust: TLSTrust) async -> TransportError? {
        let verdict = TLSVerification.Verdict()
        let options = WebSocketDialer.Options(maxMessageBytes: 1 << 14, check: .recordOnly, verdict: verdict)
        let queue = InboundQueue()
        if let probe = try? await WebSocketDialer.connect(url: url, group: group, options: options, queue: queue) {
            await probe.close(code: 1001)
        }
        queue.finish()
        guard let certificate = verdict.certificate else { return nil }
        if !certificate.isValid(at: trust.now()) {
            return .tlsTrust(.outsideValidity(host: url.host, certificate: certificate))
        }
        return .tlsTrust(.firstUse(host: url.host, certificate: certificate))
    }

    /// What went wrong, from the error's type: SwiftNIO's errors carry what
    /// happened (the refused connection's errno, the failed DNS queries, the timeout) as values.
    static func classify(_ error: any Error, url: GatewayURL) -> TransportError {
        switch error {
        case let refused as UpgradeRefused:
            return .upgradeRejected(status: refused.status)
        case WebSocketUpgradeFailure.unsafeHost:
            // What a name server would have said of it.
            return .hostNotFound(host: url.host)
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
