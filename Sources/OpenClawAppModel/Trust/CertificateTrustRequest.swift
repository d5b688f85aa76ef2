import Foundation
import OpenClawGateway

/// A `wss://` gateway's certificate that no pin and no system trust vouches for, shown so the person
/// can compare it with the one the gateway prints (`openclaw gateway status` on the host) before
/// trusting it. Trusted, it is pinned for exactly this endpoint; every later connection must present it.
public struct CertificateTrustRequest: Sendable, Equatable, Identifiable {
    public let url: GatewayURL
    public let host: String
    public let certificate: TLSPeerCertificate

    public var id: String { url.tlsPinKey + certificate.fingerprint.hex }

    /// The SHA-256 fingerprint in groups of four, easier to compare by eye than 64 digits in a row.
    public var fingerprintGroups: [String] {
        let digits = Array(certificate.fingerprint.hex)
        return stride(from: 0, to: digits.count, by: 4).map { String(digits[$0..<min($0 + 4, digits.count)]) }
    }

    /// Says when a certificate is outside its validity: trusting it would not help.
    public func validityProblem(at date: Date = Date()) -> String? {
        certificate.isValid(at: date) ? nil : "This certificate is not valid now (it has expired or is not valid yet)."
    }
}
