/// A gateway found on the local network by its DNS-SD beacon (`_openclaw-gw._tcp`).
///
/// The beacon's TXT record is not authenticated: anyone on the LAN can advertise anything. So its values
/// are hints for what to show, never trust: the address to connect to is the resolved service endpoint
/// (SRV host and port, with the A/AAAA addresses), not the TXT `lanHost`/`gatewayPort`; and an advertised
/// certificate fingerprint is shown for the person to compare, never pinned by itself, and never
/// replaces a pin already stored (upstream's rules for discovery, docs/gateway/discovery.md).
public struct DiscoveredGateway: Sendable, Hashable {
    /// The DNS-SD service type every OpenClaw gateway advertises.
    public static let serviceType = "_openclaw-gw._tcp"

    /// The service instance name (what the gateway's owner called it).
    public var serviceName: String
    /// The resolved host name (SRV target), e.g. `mini.local`.
    public var host: String
    /// The resolved port (SRV).
    public var port: Int
    /// Resolved addresses (A/AAAA), in the order seen.
    public var addresses: [String]
    public var domain: String
    /// What the TXT record says, typed; see ``DiscoveryTXT``.
    public var txt: DiscoveryTXT

    public init(
        serviceName: String, host: String, port: Int, addresses: [String] = [], domain: String = "local",
        txt: DiscoveryTXT = DiscoveryTXT()
    ) {
        self.serviceName = serviceName
        self.host = host
        self.port = port
        self.addresses = addresses
        self.domain = domain
        self.txt = txt
    }

    /// The name to show: the advertised display name, else the service name.
    public var displayName: String { txt.displayName ?? serviceName }

    /// Whether the beacon says TLS is on (`gatewayTls=1`): connect with `wss://`.
    public var usesTLS: Bool { txt.usesTLS }

    /// The URL to connect to: the resolved endpoint, `wss://` when the beacon says TLS is on.
    public var url: GatewayURL {
        GatewayURL(isSecure: usesTLS, host: host, port: port)
    }
}

/// The TXT keys of a gateway beacon, read leniently: unknown keys are ignored, a malformed value is
/// treated as absent.
public struct DiscoveryTXT: Sendable, Hashable {
    /// `role`: `gateway` for a gateway beacon.
    public var role: String?
    public var transport: String?
    public var displayName: String?
    /// `lanHost`: a hint only; the resolved host is what is used.
    public var lanHost: String?
    /// `gatewayPort`: a hint only; the resolved port is what is used.
    public var gatewayPort: Int?
    public var usesTLS: Bool
    /// `gatewayTlsSha256`: the fingerprint the gateway advertises, for the person to compare with the
    /// one the connection shows. Never pinned from here.
    public var advertisedFingerprint: TLSFingerprint?
    /// `tailnetDns`: the gateway's MagicDNS name, to reach it from another network over Tailscale.
    public var tailnetDns: String?
    public var sshPort: Int?
    public var cliPath: String?

    public init(
        role: String? = nil, transport: String? = nil, displayName: String? = nil, lanHost: String? = nil,
        gatewayPort: Int? = nil, usesTLS: Bool = false, advertisedFingerprint: TLSFingerprint? = nil,
        tailnetDns: String? = nil, sshPort: Int? = nil, cliPath: String? = nil
    ) {
        self.role = role
        self.transport = transport
        self.displayName = displayName
        self.lanHost = lanHost
        self.gatewayPort = gatewayPort
        self.usesTLS = usesTLS
        self.advertisedFingerprint = advertisedFingerprint
        self.tailnetDns = tailnetDns
        self.sshPort = sshPort
        self.cliPath = cliPath
    }

    /// From `key=value` strings as DNS-SD carries them (a key without `=` is a flag, kept as empty).
    /// Keys compare case-insensitively, as DNS-SD says; the first occurrence of a key wins.
    public init(entries: [String]) {
        var values: [String: String] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = parts.first.map({ $0.lowercased() }), !key.isEmpty, values[key] == nil else { continue }
            values[key] = parts.count > 1 ? String(parts[1]) : ""
        }
        func text(_ key: String) -> String? {
            values[key.lowercased()].flatMap { $0.isEmpty ? nil : $0 }
        }
        func port(_ key: String) -> Int? {
            text(key).flatMap(Int.init).flatMap { (1...65_535).contains($0) ? $0 : nil }
        }
        let tls = text("gatewayTls")?.lowercased()
        self.init(
            role: text("role"), transport: text("transport"), displayName: text("displayName"),
            lanHost: text("lanHost"), gatewayPort: port("gatewayPort"),
            usesTLS: tls == "1" || tls == "true" || tls == "yes",
            advertisedFingerprint: text("gatewayTlsSha256").flatMap(TLSFingerprint.init(parsing:)),
            tailnetDns: text("tailnetDns"), sshPort: port("sshPort"), cliPath: text("cliPath"))
    }

    /// Whether the beacon is a gateway's: `role=gateway`, or no role at all (older gateways).
    public var isGateway: Bool { role == nil || role == "gateway" }
}
