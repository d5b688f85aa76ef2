#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the transport saw of a gateway's leaf certificate: enough to show, pin and check it.
public struct TLSPeerCertificate: Sendable, Hashable {
    public let fingerprint: TLSFingerprint
    public let notValidBefore: Date
    public let notValidAfter: Date

    public init(fingerprint: TLSFingerprint, notValidBefore: Date, notValidAfter: Date) {
        self.fingerprint = fingerprint
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
    }

    /// Whether `date` lies inside the validity period.
    public func isValid(at date: Date) -> Bool {
        notValidBefore <= date && date <= notValidAfter
    }
}
