import Crypto
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The SHA-256 of a certificate's DER bytes: how a self-signed gateway certificate is recognised.
///
/// Stored and compared as 64 lowercase hex digits. Parsing accepts what people copy from a gateway or
/// a setup code: an optional `sha256:` / `sha-256` prefix, upper case, and `:` or space separators.
public struct TLSFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let hex: String

    public init?(parsing text: String) {
        var rest = text.trimming(.whitespacesAndNewlines).lowercased()[...]
        for prefix in ["sha256:", "sha-256:", "sha256", "sha-256"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        let digits = rest.filter { $0 != ":" && $0 != " " }
        guard digits.count == 64, digits.allSatisfy(\.isHexDigit) else { return nil }
        hex = String(digits)
    }

    /// The fingerprint of a DER-encoded certificate.
    public init(certificateDER: [UInt8]) {
        hex = SHA256.hash(data: certificateDER).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// `sha256:` and the hex digits: the form `--tls-fingerprint` takes and messages show.
    public var description: String { "sha256:\(hex)" }
}
