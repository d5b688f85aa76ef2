import Crypto
import OpenClawTestGatewayCore

/// The DER bytes of a self-signed X.509 v3 certificate for a P-256 key (RFC 5280): a subject of common
/// name and organisation, a validity, `basicConstraints` (critical, not a CA) and the subject's names.
///
/// Written here rather than with swift-certificates: the test gateway is in the one `openclaw-chat`
/// binary, and that package with swift-asn1 put about 870 protocol-conformance records in it — a ninth
/// of all, which every first type look-up of every command scans — for one certificate made at
/// `gateway --tls`. The tests read what this writes back with swift-certificates.
struct SelfSignedCertificate {
    var commonName: String
    var organization: String
    var dnsNames: [String]
    /// IPv4 (4 bytes) or IPv6 (16 bytes) addresses.
    var ipAddresses: [[UInt8]]
    /// Seconds since 1970, UTC.
    var notValidBefore: Int
    var notValidAfter: Int
    /// Positive and at most 20 octets once encoded (RFC 5280 §4.1.2.2): 20 bytes with the first under 0x80.
    var serialNumber: [UInt8]

    /// Signs the certificate with `key`, whose public half it names.
    func der(signedBy key: P256.Signing.PrivateKey) throws -> [UInt8] {
        // A dNSName is an IA5String: ASCII (an international name goes in its punycode form).
        if let name = dnsNames.first(where: { !$0.utf8.allSatisfy { $0 < 0x80 } }) {
            throw NonASCIIDNSName(name: name)
        }
        let signatureAlgorithm = DER.sequence(DER.objectIdentifier(DER.ecdsaWithSHA256))
        let name = DER.sequence(
            DER.set(DER.sequence(DER.objectIdentifier(DER.commonName) + DER.utf8String(commonName)))
                + DER.set(DER.sequence(DER.objectIdentifier(DER.organizationName) + DER.utf8String(organization))))
        var extensions = DER.sequence(
            DER.objectIdentifier(DER.basicConstraints) + DER.boolean(true) + DER.octetString(DER.sequence([])))
        let generalNames =
            dnsNames.flatMap { DER.element(0x82, Array($0.utf8)) } + ipAddresses.flatMap { DER.element(0x87, $0) }
        if !generalNames.isEmpty {
            extensions += DER.sequence(
                DER.objectIdentifier(DER.subjectAltName) + DER.octetString(DER.sequence(generalNames)))
        }
        let toBeSigned = DER.sequence(
            DER.element(0xA0, DER.integer([2]))
                + DER.integer(serialNumber)
                + signatureAlgorithm
                + name
                + DER.sequence(DER.time(notValidBefore) + DER.time(notValidAfter))
                + name
                + Array(key.publicKey.derRepresentation)
                + DER.element(0xA3, DER.sequence(extensions)))
        let signature = try key.signature(for: toBeSigned).derRepresentation
        return DER.sequence(toBeSigned + signatureAlgorithm + DER.bitString(Array(signature)))
    }
}

/// A certificate name must be ASCII (its punycode form, for an international name).
struct NonASCIIDNSName: Error, CustomStringConvertible {
    let name: String
    var description: String { "the certificate's DNS name \(name) is not ASCII: give its punycode form" }
}

/// The few DER encodings a certificate needs (X.690 §8, §10).
enum DER {
    static let ecdsaWithSHA256: [UInt64] = [1, 2, 840, 10045, 4, 3, 2]
    static let commonName: [UInt64] = [2, 5, 4, 3]
    static let organizationName: [UInt64] = [2, 5, 4, 10]
    static let basicConstraints: [UInt64] = [2, 5, 29, 19]
    static let subjectAltName: [UInt64] = [2, 5, 29, 17]

    /// Tag, definite length (short form under 128, else the long form), contents.
    static func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var count = contents.count
            while count > 0 {
                length.insert(UInt8(truncatingIfNeeded: count), at: 0)
                count >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + contents
    }

    static func sequence(_ contents: [UInt8]) -> [UInt8] { element(0x30, contents) }
    static func set(_ contents: [UInt8]) -> [UInt8] { element(0x31, contents) }
    static func boolean(_ value: Bool) -> [UInt8] { element(0x01, [value ? 0xFF : 0x00]) }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(0x04, bytes) }
    static func utf8String(_ text: String) -> [UInt8] { element(0x0C, Array(text.utf8)) }
    /// No unused bits: what is wrapped is whole bytes.
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(0x03, [0] + bytes) }

    /// A non-negative integer from its big-endian bytes: leading zeros dropped, one put back when the
    /// first bit would read as a sign.
    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return element(0x02, bytes)
    }

    static func objectIdentifier(_ arcs: [UInt64]) -> [UInt8] {
        var bytes: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var chunk = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(0x80 | UInt8(rest & 0x7F), at: 0)
                rest >>= 7
            }
            bytes += chunk
        }
        return element(0x06, bytes)
    }

    /// `UTCTime` for 1950–2049, `GeneralizedTime` otherwise (RFC 5280 §4.1.2.5), to the second, in UTC.
    static func time(_ seconds: Int) -> [UInt8] {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = ISOTime.civil(fromDays: days)
        let rest =
            [month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60]
            .map { ISOTime.pad($0, 2) }.joined() + "Z"
        if (1950..<2050).contains(year) {
            return element(0x17, Array((ISOTime.pad(year % 100, 2) + rest).utf8))
        }
        return element(0x18, Array((ISOTime.pad(year, 4) + rest).utf8))
    }
}
