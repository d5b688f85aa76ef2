#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a `wss://` gateway's certificate was not accepted. Never retried automatically: each case
/// needs a person to decide (trust a new certificate, or not connect at all).
public enum TLSTrustFailure: Error, Sendable, Hashable {
    /// Not trusted by the system and no pin for this gateway yet: show the fingerprint and ask.
    case firstUse(host: String, certificate: TLSPeerCertificate)
    /// The gateway presents another certificate than the one pinned: a replaced certificate, or
    /// someone in between. Never accepted without the person removing the pin.
    case pinMismatch(host: String, pinned: TLSFingerprint, observed: TLSFingerprint)
    /// The certificate is not the one given for this connection (`--tls-fingerprint`, a setup code).
    case fingerprintMismatch(host: String, expected: TLSFingerprint, observed: TLSFingerprint)
    /// The certificate is expired or not yet valid: a pin does not make an expired certificate good.
    case outsideValidity(host: String, certificate: TLSPeerCertificate)
    /// A `ws://` address for a host whose certificate is pinned: speaking to it in clear text would
    /// hand the token to whoever can intercept, which is what the pin exists to rule out.
    case pinnedHostOverPlaintext(host: String, pinnedAddress: String)

    public var message: String {
        switch self {
        case .firstUse(let host, let certificate):
            return "The certificate of \(host) is not trusted by this system and has not been pinned "
                + "(fingerprint \(certificate.fingerprint))."
        case .pinMismatch(let host, let pinned, let observed):
            return "The certificate of \(host) has CHANGED since it was pinned: expected \(pinned), "
                + "the gateway presented \(observed)."
        case .fingerprintMismatch(let host, let expected, let observed):
            return "The certificate of \(host) is not the expected one: expected \(expected), "
                + "the gateway presented \(observed)."
        case .outsideValidity(let host, let certificate):
            let now = Date()
            let when =
                certificate.notValidAfter < now
                ? "expired on \(Self.day(certificate.notValidAfter))"
                : "is not valid before \(Self.day(certificate.notValidBefore))"
            return "The certificate of \(host) \(when) (fingerprint \(certificate.fingerprint))."
        case .pinnedHostOverPlaintext(let host, let pinnedAddress):
            return "Refusing to connect to \(host) without TLS: its certificate is pinned for \(pinnedAddress), "
                + "so this gateway is reached with wss://."
        }
    }

    public var nextStep: String {
        switch self {
        case .firstUse:
            return "Compare the fingerprint with the gateway's own (on the gateway host), "
                + "then trust it: answer the prompt, or pass --tls-fingerprint with that value "
                + "(--trust-on-first-use accepts whatever is presented, for scripts on a trusted network)."
        case .pinMismatch:
            return "If the gateway's certificate was replaced on purpose, check the new fingerprint on the "
                + "gateway host and forget the old pin (`openclaw-chat trust --forget`), then connect again. "
                + "Otherwise someone may be intercepting the connection: do not connect."
        case .fingerprintMismatch:
            return "Check the fingerprint on the gateway host. If the gateway is the right one, use its "
                + "current fingerprint (or a fresh setup code); otherwise do not connect."
        case .outsideValidity:
            return "Renew the gateway's certificate (and check this computer's clock), then connect again; "
                + "a renewed certificate has a new fingerprint to pin."
        case .pinnedHostOverPlaintext(_, let pinnedAddress):
            return "Use \(pinnedAddress) (wss://). If this gateway really no longer speaks TLS, remove the pin first: "
                + "`openclaw-chat trust --url \(pinnedAddress) --forget`."
        }
    }

    /// `2026-11-27 16:31 UTC`, cut from the ISO 8601 form (`2026-11-27T16:31:05Z`, always UTC).
    private static func day(_ date: Date) -> String {
        let iso = date.formatted(Date.ISO8601FormatStyle())
        return "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5)) UTC"
    }
}
