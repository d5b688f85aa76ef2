import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One HTTP/1.1 GET on SwiftNIO with a capped body: how a generated image is fetched from the
/// gateway's own origin.
///
/// Its TLS is the WebSocket's (`ClientTLS`, the same `TLSTrust`): a gateway whose self-signed
/// certificate was pinned serves its images over the same pin, and a host pinned for `wss://` is not
/// fetched from over plain `http`. One connection per GET (`Connection: close`), no cookies, no cache,
/// no redirects followed, nothing written to disk. Foundation's `URLSession` is not used: on Linux it
/// brings libcurl into the binary and trusts only the system's certificates.
struct CappedHTTPGet: HTTPDownloading {
    let group: any EventLoopGroup
    let tlsTrust: TLSTrust?

    func download(_ url: URL, limit: Int, idleTimeout: Duration) async throws(HTTPDownloadError) -> Data {
        guard let target = Target(url) else { throw .unsupportedURL }
        let check = try Self.tlsCheck(for: target.origin, trust: tlsTrust)
        let verdict = TLSVerification.Verdict()
        let timeout = TimeAmount(idleTimeout)
        let promise = group.any().makePromise(of: ByteBuffer.self)
        let request = target.requestHead
        let connected = ClientTLS.bootstrap(on: group)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    if target.origin.isSecure {
                        try operations.addHandler(
                            ClientTLS.handler(host: target.origin.host, check: check, verdict: verdict))
                    }
                    try operations.addHTTPClientHandlers()
                    try operations.addHandler(
                        CappedResponseHandler(request: request, limit: limit, idleTimeout: timeout, promise: promise))
                }
            }
            .connect(addressOrName: target.origin.host, port: target.origin.port)
        connected.cascadeFailure(to: promise)
        do {
            let body = try await withTaskCancellationHandler {
                try await promise.futureResult.get()
            } onCancel: {
                connected.whenSuccess { $0.close(promise: nil) }
            }
            return Data(body.readableBytesView)
        } catch {
            throw Self.classify(error, origin: target.origin, verdict: verdict)
        }
    }

    /// The certificate check for `origin`, as the WebSocket to the same address would make it.
    private static func tlsCheck(
        for origin: GatewayURL, trust: TLSTrust?
    ) throws(HTTPDownloadError) -> TLSVerification.Check? {
        do {
            if let pinnedAddress = try trust?.pinnedSecureAddress(forPlaintext: origin) {
                throw HTTPDownloadError.transport(
                    .tlsTrust(.pinnedHostOverPlaintext(host: origin.host, pinnedAddress: pinnedAddress)))
            }
            return try ClientTLS.check(for: origin, trust: trust)
        } catch let error as HTTPDownloadError {
            throw error
        } catch {
            throw .transport(.other("the pinned certificates could not be read: \(error)"))
        }
    }

    private static func classify(
        _ error: any Error, origin: GatewayURL, verdict: TLSVerification.Verdict
    ) -> HTTPDownloadError {
        if let error = error as? HTTPDownloadError {
            switch error {
            case .redirected, .status, .tooLarge:
                // A response was read: the handshake, if any, was over and its certificate accepted.
                return error
            case .unsupportedURL, .timedOut, .truncated, .transport:
                break
            }
        }
        if let failure = verdict.failure { return .transport(.tlsTrust(failure)) }
        if let error = error as? HTTPDownloadError { return error }
        if let error = error as? ChannelError, case .connectTimeout = error { return .timedOut }
        return .transport(LiveWebSocketTransport.classify(error, url: origin))
    }

    /// What is connected to and asked for.
    private struct Target {
        /// Scheme, host and port as a gateway address: its TLS rule and pin key are the WebSocket's.
        let origin: GatewayURL
        let requestHead: HTTPRequestHead

        init?(_ url: URL) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let rawHost = components.host, !rawHost.isEmpty
            else { return nil }
            let isSecure = scheme == "https"
            let host = rawHost.trimming(.scalars("[]"))
            let defaultPort = isSecure ? 443 : 80
            let port = components.port ?? defaultPort
            origin = GatewayURL(isSecure: isSecure, host: host, port: port)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            let uri = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
            var headers = HTTPHeaders()
            let bracketed = host.contains(":") ? "[\(host)]" : host
            headers.add(name: "Host", value: port == defaultPort ? bracketed : "\(bracketed):\(port)")
            headers.add(name: "Connection", value: "close")
            headers.add(name: "Accept", value: "*/*")
            requestHead = HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers)
        }
    }
}
