import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where an artifact URL may be fetched from: the gateway this client is connected to, and nowhere
/// else.
///
/// Upstream's managed-image URLs are relative to the gateway (`/api/chat/media/outgoing/…`) and are to
/// be fetched "from the Gateway origin" (`gateway/clients.md`). A URL naming another host, port or
/// scheme did not come from an honest gateway of ours: fetching it would let a hostile gateway (or a
/// poisoned transcript) point this device at any server, so it is refused.
public struct ArtifactURLPolicy: Sendable, Hashable {
    /// The gateway's HTTP origin: `http` for `ws://`, `https` for `wss://`, same host and port.
    public let scheme: String
    public let host: String
    public let port: Int

    public init(gateway: GatewayURL) {
        scheme = gateway.isSecure ? "https" : "http"
        host = gateway.host
        port = gateway.port
    }

    /// The absolute URL to fetch for `text`, or ``ArtifactFetchError/foreignURL(host:)``.
    public func resolve(_ text: String) throws(ArtifactFetchError) -> URL {
        if text.hasPrefix("/"), !text.hasPrefix("//") {
            let bracketed = host.contains(":") ? "[\(host)]" : host
            guard let url = URL(string: "\(scheme)://\(bracketed):\(port)\(text)") else {
                throw .foreignURL(host: nil)
            }
            return url
        }
        guard let url = URL(string: text), allows(url) else {
            throw .foreignURL(host: URL(string: text)?.host)
        }
        return url
    }

    /// Whether `url` is on the gateway's origin (also checked after the fetch, against redirects).
    public func allows(_ url: URL) -> Bool {
        guard let urlScheme = url.scheme?.lowercased(), urlScheme == scheme,
            let urlHost = url.host?.lowercased().trimming(.scalars("[]")),
            urlHost == host.lowercased(), url.user == nil, url.password == nil
        else { return false }
        return (url.port ?? (urlScheme == "https" ? 443 : 80)) == port
    }
}
