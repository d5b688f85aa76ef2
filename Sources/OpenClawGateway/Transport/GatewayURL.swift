import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A validated gateway address: `ws://` or `wss://`, a host, a port and a path.
///
/// Accepts what people paste: `http(s)://` is taken as `ws(s)://`, and a bare `host` or `host:port`
/// means `ws://host:18789` (the gateway's default port).
public struct GatewayURL: Sendable, Hashable, CustomStringConvertible {
    /// The port gateways listen on unless configured otherwise.
    public static let defaultPort = 18789

    /// Whether this is `wss://` (TLS).
    public let isSecure: Bool
    /// The host name or IP address; an IPv6 address without brackets.
    public let host: String
    public let port: Int
    /// The path of the WebSocket endpoint, `/` when none was given.
    public let path: String
    /// The query string without `?`, as given; never shown (see ``description``).
    public let query: String?

    /// An address from its parts, taken as they are (no checks; an empty path means `/`).
    public init(isSecure: Bool, host: String, port: Int, path: String = "/", query: String? = nil) {
        self.isSecure = isSecure
        self.host = host
        self.port = port
        self.path = path.isEmpty ? "/" : path
        self.query = query
    }

    /// Reads an address as a person types it: `ws://` or `wss://` (`http://` and `https://` mean the
    /// same), or a bare `host` or `host:port`, which means `ws://` on port 18789. `ws://host` without a
    /// port means 18789 too: a gateway listens there unless configured otherwise, and nothing serves one on
    /// port 80. `wss://`, `https://` and `http://` without a port keep their scheme's (443, 80): they are
    /// what a reverse proxy or Tailscale Serve publishes. A user name or password in the URL is refused, so
    /// that a secret never travels in an address that gets printed.
    public init(parsing text: String) throws(GatewayURLError) {
        try self.init(parsing: text, bareWebSocketPort: Self.defaultPort)
    }

    /// An address as this client saved it (a login, a setup): written before `ws://host` meant 18789, a
    /// `ws://` address without a port meant port 80, and a saved one keeps its meaning (its secret must
    /// not travel to another port). Addresses saved since always name their port.
    public init(parsingSaved text: String) throws(GatewayURLError) {
        try self.init(parsing: text, bareWebSocketPort: 80)
    }

    private init(parsing text: String, bareWebSocketPort: Int) throws(GatewayURLError) {
        var rest = Substring(text.trimming(.whitespacesAndNewlines))
        guard !rest.isEmpty else { throw .empty }
        var secure = false
        var schemePort: Int?
        if let schemeEnd = rest.firstRange(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            switch scheme {
            case "ws": schemePort = bareWebSocketPort
            case "http": schemePort = 80
            case "wss", "https":
                secure = true
                schemePort = 443
            default: throw .unsupportedScheme(scheme)
            }
            rest = rest[schemeEnd.upperBound...]
        }
        var query: String?
        if let questionMark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: questionMark)...])
            rest = rest[..<questionMark]
        }
        var path = "/"
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        // user:password@ in a URL would leak into logs; refuse it and say where credentials go.
        if rest.contains("@") { throw .credentialsInURL }
        var host = String(rest)
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw .invalidHost(host) }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()) else { throw .invalidPort(String(after.dropFirst())) }
                port = number
            } else if !after.isEmpty {
                throw .invalidHost(host)
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            let portText = host[host.index(after: colon)...]
            guard let number = Int(portText) else { throw .invalidPort(String(portText)) }
            port = number
            host = String(host[..<colon])
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { throw .invalidHost(host) }
        if let port, !(1...65535).contains(port) { throw .invalidPort(String(port)) }
        let resolvedPort = port ?? schemePort ?? Self.defaultPort
        self.init(isSecure: secure, host: host, port: resolvedPort, path: path, query: query)
    }

    /// `wss` or `ws`.
    public var scheme: String { isSecure ? "wss" : "ws" }

    /// Whether the host is this machine: pairing is silent there, and a `ws://` link stays local.
    public var isLoopback: Bool { LoopbackHost.isLoopback(host) }

    /// Whether the host is on the local network: a `.local` name, a private or link-local IPv4 address,
    /// or a unique-local or link-local IPv6 address. Setup codes may use `ws://` there.
    public var isLocalNetwork: Bool {
        let name = host.lowercased()
        if name.hasSuffix(".local") || name.hasPrefix("fe80:") || name.hasPrefix("fc") || name.hasPrefix("fd") {
            return name.hasSuffix(".local") || name.contains(":")
        }
        let octets = name.split(separator: ".").compactMap { UInt8($0) }
        guard octets.count == 4, name.split(separator: ".").count == 4 else { return false }
        switch (octets[0], octets[1]) {
        case (10, _), (192, 168), (169, 254): return true
        case (172, 16...31): return true
        default: return false
        }
    }

    /// The address for people and logs. A query string is shown as `?<redacted>`: gateways and proxies
    /// take tokens there (`?token=…`), and nothing in it is needed to recognise the gateway.
    public var description: String {
        let pathPart = path == "/" && query == nil ? "" : path
        return "\(origin)\(pathPart)\(query == nil ? "" : "?<redacted>")"
    }

    /// Which gateway this is, for storage keys (device tokens, transcripts): scheme, host, port and
    /// path only, so a secret in the query never becomes part of a key and a token rotated in the URL
    /// still finds the same records. Equals ``description`` for an address without a query, except `ws://` on
    /// port 80 (see `storageOrigin`).
    public var storageIdentity: String {
        "\(storageOrigin)\(path == "/" ? "" : path)"
    }

    /// The full address, query included: only for saving what the person entered (a login, the app's
    /// settings), never for display or logs.
    public var absoluteString: String {
        let pathPart = path == "/" && query == nil ? "" : path
        return "\(origin)\(pathPart)\(query.map { "?\($0)" } ?? "")"
    }

    /// Written so that it parses back to the same port: `wss://` omits 443; `ws://` always names its
    /// port, since `ws://host` alone means 18789.
    private var origin: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let portPart = isSecure && port == 443 ? "" : ":\(port)"
        return "\(scheme)://\(hostPart)\(portPart)"
    }

    /// The origin as storage keys have always spelt it (`ws://` omitting 80), so records saved before
    /// `ws://host` meant 18789 are still found.
    private var storageOrigin: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let portPart = port == (isSecure ? 443 : 80) ? "" : ":\(port)"
        return "\(scheme)://\(hostPart)\(portPart)"
    }
}

/// Why a text is not a gateway address; `description` says it in words a person can act on.
public enum GatewayURLError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case unsupportedScheme(String)
    case invalidHost(String)
    case invalidPort(String)
    case credentialsInURL

    public var description: String {
        switch self {
        case .empty: return "no gateway URL was given"
        case .unsupportedScheme(let scheme):
            return "'\(scheme)://' is not a gateway address; use ws://host:port or wss://host"
        case .invalidHost(let host): return "'\(host)' is not a valid host name"
        case .invalidPort(let port): return "'\(port)' is not a valid port (1-65535)"
        case .credentialsInURL: return "put the token in --token or OPENCLAW_GATEWAY_TOKEN, not in the URL"
        }
    }
}
