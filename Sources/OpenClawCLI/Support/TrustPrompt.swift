import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal's "trust this certificate?" question, asked only when a person can answer it.
enum TrustPrompt {
    /// Both stdin and stderr are terminals: the question is seen and can be answered.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// Shows the certificate and reads y/N from stdin. Anything but yes refuses.
    static func ask(url: GatewayURL, host: String, certificate: TLSPeerCertificate) -> Bool {
        let until = certificate.notValidAfter.formatted(.iso8601)
        Terminal.writeAll(
            """
            The gateway at \(TerminalText.escapedLine(url.tlsPinKey)) presents a certificate this system does not trust:
              fingerprint \(certificate.fingerprint)
              valid until \(until)
            Compare the fingerprint with the gateway's own (on the gateway host). If they are the same,
            it is pinned: later connections accept exactly this certificate and refuse any other.
            Trust and pin it? [y/N]\u{20}
            """, to: STDERR_FILENO)
        guard let answer = readLine(strippingNewline: true)?.trimming(.whitespaces).lowercased()
        else { return false }
        return answer == "y" || answer == "yes"
    }
}
