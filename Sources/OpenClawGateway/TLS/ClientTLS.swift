import NIOCore
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Network)
    import NIOTransportServices
#endif

/// The one place a client socket's TLS is set up, for every socket this package opens to a gateway
/// itself: the WebSocket (`WebSocketDialer`) and the GET of a generated image
/// (`CappedHTTPGet`). Both therefore trust exactly the same certificates: a pin checked for the
/// WebSocket is checked the same way for the image on the same origin.
enum ClientTLS {
    /// The TLS handler for a connection to `host`: the fingerprint `check` when there is one, the
    /// system trust store and host name check when it is nil. `verdict` learns what the check saw.
    static func handler(
        host: String, check: TLSVerification.Check?, verdict: TLSVerification.Verdict
    ) throws -> NIOSSLClientHandler {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        // Closing need not wait the default 5 s for a peer that never answers close_notify.
        tls.shutdownTimeout = .seconds(1)
        // A certificate trusted by its fingerprint is that gateway whatever names it lists: a self-signed
        // one made for `mini.local` is pinned as the certificate of the address it was reached at (an IP).
        if check != nil { tls.certificateVerification = .noHostnameVerification }
        let context = try NIOSSLContext(configuration: tls)
        do {
            return try handler(context: context, host: host, sni: true, check: check, verdict: verdict)
        } catch let error as NIOSSLExtraError where error == .cannotUseIPAddressInSNI {
            // An IP address is not sent as SNI; the system check then matches the certificate against
            // the peer's address.
            return try handler(context: context, host: host, sni: false, check: check, verdict: verdict)
        }
    }

    private static func handler(
        context: NIOSSLContext, host: String, sni: Bool, check: TLSVerification.Check?,
        verdict: TLSVerification.Verdict
    ) throws -> NIOSSLClientHandler {
        let serverHostname = sni ? host : nil
        guard let check else { return try NIOSSLClientHandler(context: context, serverHostname: serverHostname) }
        return try NIOSSLClientHandler(context: context, serverHostname: serverHostname) { certificates, promise in
            promise.succeed(judge(certificates, check: check, host: host, verdict: verdict))
        }
    }

    /// The check a connection to `url` makes under `trust`: nil leaves it to the system trust store.
    /// Reading the pin can fail (a broken credential store): then no connection is made.
    static func check(for url: GatewayURL, trust: TLSTrust?) throws(CredentialStoreError) -> TLSVerification.Check? {
        guard url.isSecure, let trust else { return nil }
        switch try trust.rule(for: url) {
        case .system: return nil
        case .fingerprint(let pinned, let expected, _):
            return .fingerprint(pinned: pinned, expected: expected, now: trust.now())
        }
    }

    /// Runs on the event loop during the handshake.
    private static func judge(
        _ certificates: [NIOSSLCertificate], check: TLSVerification.Check, host: String,
        verdict: TLSVerification.Verdict
    ) -> NIOSSLVerificationResult {
        guard let leaf = certificates.first, let der = try? leaf.toDERBytes() else {
            verdict.record(nil, failure: nil)
            return .failed
        }
        let certificate = TLSPeerCertificate(
            fingerprint: TLSFingerprint(certificateDER: der),
            notValidBefore: Date(timeIntervalSince1970: TimeInterval(leaf.notValidBefore)),
            notValidAfter: Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
        )
        switch check {
        case .recordOnly:
            verdict.record(certificate, failure: nil)
            return .failed
        case .fingerprint(let pinned, let expected, let now):
            let failure = TLSTrust.check(certificate, pinned: pinned, expected: expected, host: host, now: now)
            verdict.record(certificate, failure: failure)
            return failure == nil ? .certificateVerified : .failed
        }
    }

    /// A TCP client bootstrap on `group`: Network.framework's where the group is one of its own.
    static func bootstrap(on group: any EventLoopGroup) -> any NIOClientTCPBootstrapProtocol {
        #if canImport(Network)
            if let bootstrap = NIOTSConnectionBootstrap(validatingGroup: group) {
                return bootstrap.channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            }
        #endif
        // The transport's groups are NIOTS or POSIX ones; a POSIX group always validates.
        let bootstrap = ClientBootstrap(validatingGroup: group) ?? ClientBootstrap(group: group)
        return bootstrap.channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
    }
}
