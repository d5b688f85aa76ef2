import Crypto
import NIOCore
import NIOSSL
import OpenClawGateway
import OpenClawTestGatewayCore
import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A freshly generated key and self-signed certificate, ready for NIOSSL.
struct TestGatewayCertificate {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey
    let fingerprint: TLSFingerprint

    init(_ tls: TestGatewayTLS) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            CommonName("OpenClaw test gateway")
            OrganizationName("OpenClaw")
        }
        let loopback: [GeneralName] = [
            .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
            .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
        ]
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            SubjectAlternativeNames(tls.dnsNames.map(GeneralName.dnsName) + (tls.namesLoopback ? loopback : []))
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: tls.notValidBefore,
            notValidAfter: tls.notValidAfter,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let der = serializer.serializedBytes
        self.certificate = try NIOSSLCertificate(bytes: der, format: .der)
        self.privateKey = try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)
        self.fingerprint = TLSFingerprint(certificateDER: der)
    }

    /// A stopping gateway does not wait the default 5 s for each client's `close_notify`: that is the whole
    /// of `GatewayServer.shutdownGrace`, so one silent client would outlast the stop.
    var serverConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(privateKey))
        configuration.shutdownTimeout = .milliseconds(100)
        return configuration
    }
}
