import OpenClawGateway

/// What the address field holds, checked as the user types, in words for a phone screen.
///
/// ``GatewayURL/init(parsing:)`` decides (the same rules as the terminal client: `http(s)` read as
/// `ws(s)`, a bare host means port 18789); this only words the verdict for the app, whose errors must
/// not talk about command-line flags.
public enum GatewayAddressCheck: Sendable, Equatable {
    case empty
    /// A usable address, with a caution worth showing (plain `ws://` beyond this device).
    case valid(GatewayURL, caution: String?)
    case invalid(String)

    public init(_ text: String) {
        guard !text.allSatisfy(\.isWhitespace) else {
            self = .empty
            return
        }
        do {
            let url = try GatewayURL(parsing: text)
            let caution =
                url.isSecure || url.isLoopback
                ? nil
                : "ws:// is not encrypted: use it only on your own network or through a VPN such as Tailscale."
            self = .valid(url, caution: caution)
        } catch {
            self = .invalid(Self.message(for: error))
        }
    }

    public var url: GatewayURL? {
        if case .valid(let url, _) = self { return url }
        return nil
    }

    /// The problem to show under the field, if any.
    public var problem: String? {
        switch self {
        case .empty: return "Enter the gateway's address, e.g. ws://192.168.1.20:18789."
        case .valid: return nil
        case .invalid(let message): return message
        }
    }

    static func message(for error: GatewayURLError) -> String {
        switch error {
        case .empty: return "Enter the gateway's address, e.g. ws://192.168.1.20:18789."
        case .unsupportedScheme(let scheme):
            return "“\(scheme)://” is not a gateway address. Use ws://host:port, or wss://host for TLS."
        case .invalidHost(let host):
            return host.isEmpty ? "The address has no host name." : "“\(host)” is not a valid host name."
        case .invalidPort(let port): return "“\(port)” is not a valid port (1–65535)."
        case .credentialsInURL: return "Leave the token out of the address; enter it in the field below."
        }
    }
}
