import Crypto
import NIOCore
import NIOSSL
import OpenClawGateway
import OpenClawTestGatewayCore

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
        let loopback: [[UInt8]] = [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]
        let der = try SelfSignedCertificate(
            commonName: "OpenClaw test gateway",
            organization: "OpenClaw",
            dnsNames: tls.dnsNames,
            ipAddresses: tls.namesLoopback ? loopback : [],
            notValidBefore: Int(tls.notValidBefore.timeIntervalSince1970.rounded(.down)),
            notValidAfter: Int(tls.notValidAfter.timeIntervalSince1970.rounded(.down)),
            serialNumber: [UInt8.random(in: 1...0x7F)] + (1..<20).map { _ in UInt8.random(in: 0...255) }
        ).der(signedBy: key)
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
