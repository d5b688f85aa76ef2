import Crypto
import SwiftASN1
import Testing
import X509

@testable import OpenClawTestGateway

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The test gateway writes its certificate's DER itself; swift-certificates, an independent reader,
/// must find in it what was asked for, and a valid signature.
@Suite("The test gateway's self-signed certificate")
struct SelfSignedCertificateTests {
    @Test func swiftCertificatesReadsBackEveryFieldAndTheSignature() throws {
        let key = P256.Signing.PrivateKey()
        let serial: [UInt8] = [0x5F] + (1...19).map { UInt8($0) }
        let der = try SelfSignedCertificate(
            commonName: "OpenClaw test gateway", organization: "OpenClaw", dnsNames: ["localhost", "gw.example"],
            ipAddresses: [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
            notValidBefore: 1_764_000_000, notValidAfter: 2_600_000_000, serialNumber: serial
        ).der(signedBy: key)

        let certificate = try Certificate(derEncoded: der)
        #expect(certificate.version == .v3)
        #expect(certificate.serialNumber.bytes == ArraySlice(serial))
        #expect(certificate.notValidBefore == Date(timeIntervalSince1970: 1_764_000_000))
        // After 2049: a GeneralizedTime.
        #expect(certificate.notValidAfter == Date(timeIntervalSince1970: 2_600_000_000))
        let subject = String(describing: certificate.subject)
        #expect(subject.contains("CN=OpenClaw test gateway") && subject.contains("O=OpenClaw"), "\(subject)")
        #expect(certificate.issuer == certificate.subject)
        #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(certificate.publicKey == Certificate.PublicKey(key.publicKey))
        #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))

        let names = try #require(try certificate.extensions.subjectAlternativeNames)
        #expect(
            Array(names) == [
                .dnsName("localhost"), .dnsName("gw.example"),
                .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
            ])
        let constraints = try #require(certificate.extensions.first { $0.oid == .X509ExtensionID.basicConstraints })
        #expect(constraints.critical)
        #expect(try certificate.extensions.basicConstraints == .notCertificateAuthority)
    }

    @Test func aCertificateWithoutNamesHasNoSubjectAlternativeNames() throws {
        let der = try SelfSignedCertificate(
            commonName: "x", organization: "y", dnsNames: [], ipAddresses: [], notValidBefore: 0,
            notValidAfter: 86_400, serialNumber: [1]
        ).der(signedBy: P256.Signing.PrivateKey())
        let certificate = try Certificate(derEncoded: der)
        #expect(try certificate.extensions.subjectAlternativeNames == nil)
        #expect(certificate.notValidBefore == Date(timeIntervalSince1970: 0))
    }

    @Test(arguments: [
        (0, "700101000000Z"), (-1, "691231235959Z"), (951_782_400, "000229000000Z"),
        (2_524_607_999, "491231235959Z"), (2_524_608_000, "20500101000000Z"), (-631_152_001, "19491231235959Z"),
    ])
    func timesAreUTCTimeFrom1950To2049AndGeneralizedOtherwise(seconds: Int, text: String) {
        let encoded = DER.time(seconds)
        #expect(encoded.first == (text.count == 13 ? 0x17 : 0x18))
        #expect(String(decoding: encoded.dropFirst(2), as: UTF8.self) == text)
    }

    @Test func integersAndLengthsAreMinimal() {
        #expect(DER.integer([0, 0, 5]) == [0x02, 0x01, 0x05])
        #expect(DER.integer([0x80]) == [0x02, 0x02, 0x00, 0x80])
        #expect(DER.integer([]) == [0x02, 0x01, 0x00])
        #expect(Array(DER.octetString(Array(repeating: 0, count: 127)).prefix(2)) == [0x04, 0x7F])
        #expect(Array(DER.octetString(Array(repeating: 0, count: 200)).prefix(3)) == [0x04, 0x81, 0xC8])
        #expect(Array(DER.octetString(Array(repeating: 0, count: 300)).prefix(4)) == [0x04, 0x82, 0x01, 0x2C])
        #expect(
            DER.objectIdentifier(DER.ecdsaWithSHA256) == [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02])
    }
}
