#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// TLS for a test gateway: a self-signed certificate made when the gateway starts, as a home gateway's
/// would be. Its validity period is configurable so tests can serve an expired one.
public struct TestGatewayTLS: Sendable, Hashable {
    /// DNS names in the certificate.
    public var dnsNames: [String]
    /// Whether `127.0.0.1` and `::1` are in it too, as IP addresses (false: a certificate made for another
    /// machine's name, reached here by its address).
    public var namesLoopback = true
    public var notValidBefore: Date
    public var notValidAfter: Date

    public init(
        dnsNames: [String] = ["localhost"],
        notValidBefore: Date = Date().addingTimeInterval(-3600),
        notValidAfter: Date = Date().addingTimeInterval(30 * 86_400)
    ) {
        self.dnsNames = dnsNames
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
    }

    /// A certificate that expired a day ago.
    public static var expired: TestGatewayTLS {
        TestGatewayTLS(
            notValidBefore: Date().addingTimeInterval(-30 * 86_400), notValidAfter: Date().addingTimeInterval(-86_400))
    }
}
