import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a connection this package opens judges the gateway's certificate when the system trust store is
/// not the judge, and what the judgement saw (see `ClientTLS`).
enum TLSVerification {
    /// What the verification callback saw and decided, read once the connect attempt is over.
    final class Verdict: Sendable {
        private let state = Mutex<(certificate: TLSPeerCertificate?, failure: TLSTrustFailure?)>((nil, nil))

        var certificate: TLSPeerCertificate? { state.withLock { $0.certificate } }
        var failure: TLSTrustFailure? { state.withLock { $0.failure } }

        func record(_ certificate: TLSPeerCertificate?, failure: TLSTrustFailure?) {
            state.withLock { $0 = (certificate, failure) }
        }
    }

    /// How the leaf certificate is judged.
    enum Check: Sendable {
        /// The fingerprint rule of ``TLSTrust``.
        case fingerprint(pinned: TLSFingerprint?, expected: TLSFingerprint?, now: Date)
        /// Record the certificate and refuse it: used after the system refused it, to show what it was.
        case recordOnly
    }
}
