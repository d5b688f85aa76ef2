#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a `wss://` connection decides to trust the gateway's certificate.
///
/// Without a pin, an expected fingerprint or trust on first use, the system's trust store decides (a
/// publicly trusted certificate just works). Otherwise the leaf certificate is checked by its SHA-256
/// fingerprint: a stored pin must match exactly, and nothing (a flag, a setup code, a discovery TXT
/// record) ever overrides it; an expected fingerprint must match too; on first use the certificate is
/// pinned once the connection succeeds.
public struct TLSTrust: Sendable {
    public var pinStore: any TLSPinStore
    /// Given for this connection: `--tls-fingerprint` or a setup code's `tlsFingerprint`.
    public var expectedFingerprint: TLSFingerprint?
    /// Pin whatever certificate is presented the first time (the person agreed in advance).
    public var trustOnFirstUse: Bool
    public var now: @Sendable () -> Date

    public init(
        pinStore: any TLSPinStore,
        expectedFingerprint: TLSFingerprint? = nil,
        trustOnFirstUse: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.pinStore = pinStore
        self.expectedFingerprint = expectedFingerprint
        self.trustOnFirstUse = trustOnFirstUse
        self.now = now
    }

    /// What the handshake checks, decided before connecting.
    public enum Rule: Sendable, Hashable {
        /// The system trust store and host name check (no pin, nothing expected, no consent).
        case system
        /// Only the fingerprint (and the validity period) counts.
        case fingerprint(pinned: TLSFingerprint?, expected: TLSFingerprint?, trustOnFirstUse: Bool)
    }

    /// The rule for `url`, from the stored pin and this connection's options.
    public func rule(for url: GatewayURL) throws(CredentialStoreError) -> Rule {
        let pinned = try pinStore.pin(for: url.tlsPinKey)?.fingerprint
        if pinned == nil, expectedFingerprint == nil, !trustOnFirstUse { return .system }
        return .fingerprint(pinned: pinned, expected: expectedFingerprint, trustOnFirstUse: trustOnFirstUse)
    }

    /// The pinned `wss://` address of `url`'s host, if any (any port): a plaintext `url` to such a host
    /// is refused, since a pin says this host is spoken to with TLS.
    public func pinnedSecureAddress(forPlaintext url: GatewayURL) throws(CredentialStoreError) -> String? {
        guard !url.isSecure else { return nil }
        let host = url.host.lowercased()
        let wanted = host.contains(":") ? "[\(host)]" : host
        return try pinStore.all().keys.sorted().first { key in
            guard key.hasPrefix("wss://"), let colon = key.lastIndex(of: ":") else { return false }
            return key[key.index(key.startIndex, offsetBy: 6)..<colon] == wanted
        }
    }

    /// Checks a presented leaf certificate against a fingerprint rule: nil accepts it.
    public static func check(
        _ certificate: TLSPeerCertificate,
        pinned: TLSFingerprint?,
        expected: TLSFingerprint?,
        host: String,
        now: Date
    ) -> TLSTrustFailure? {
        let observed = certificate.fingerprint
        if let pinned, pinned != observed {
            return .pinMismatch(host: host, pinned: pinned, observed: observed)
        }
        if let expected, expected != observed {
            return .fingerprintMismatch(host: host, expected: expected, observed: observed)
        }
        if !certificate.isValid(at: now) {
            return .outsideValidity(host: host, certificate: certificate)
        }
        return nil
    }

    /// After a successful handshake under a fingerprint rule: the pin to store, if there was none.
    func remember(_ certificate: TLSPeerCertificate, for url: GatewayURL) throws(CredentialStoreError) {
        guard try pinStore.pin(for: url.tlsPinKey) == nil else { return }
        try pinStore.trust(certificate, for: url, at: now())
    }
}

extension GatewayURL {
    /// Which gateway endpoint a certificate pin belongs to: `wss://host:port`, lower-cased. No path or
    /// query (a secret may live there); another host name for the same machine is another endpoint,
    /// so a pin never silently carries over to an address the person did not trust.
    public var tlsPinKey: String {
        let hostPart = host.contains(":") ? "[\(host.lowercased())]" : host.lowercased()
        return "\(scheme)://\(hostPart):\(port)"
    }
}
