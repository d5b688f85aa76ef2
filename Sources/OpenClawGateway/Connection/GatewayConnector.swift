import Logging
import OpenClawProtocol

/// What makes a connection this program's own, apart from where it goes: how it introduces itself, the
/// device identity and tokens it signs in with, the certificate pins it trusts, where its logs and frame
/// traces go.
///
/// The terminal and the app each hold one and ask it for every connection, so an address, a credential
/// and a trust decision become a configured ``GatewayConnection`` in one place: a connection that
/// forgot the pins, the locale or the stored device token cannot be made by accident.
public struct GatewayConnector: Sendable {
    /// How this program introduces itself in `connect.client`.
    public var client: ClientInfo
    /// Sent in `connect.userAgent`.
    public var userAgent: String?
    /// BCP 47, sent in `connect.locale`.
    public var locale: String?
    public var identityStore: any DeviceIdentityStore
    public var tokenStore: any DeviceTokenStore
    /// Certificate pins of `wss://` gateways.
    public var tlsPinStore: any TLSPinStore
    public var logger: Logger
    /// Receives every frame in and out, redacted (a `--trace` option, the app's debug view).
    public var traceFrame: (@Sendable (FrameTrace) -> Void)?

    public init(
        client: ClientInfo,
        userAgent: String? = nil,
        locale: String? = nil,
        identityStore: any DeviceIdentityStore,
        tokenStore: any DeviceTokenStore,
        tlsPinStore: any TLSPinStore = InMemoryTLSPinStore(),
        logger: Logger = Logger(label: "openclaw.gateway"),
        traceFrame: (@Sendable (FrameTrace) -> Void)? = nil
    ) {
        self.client = client
        self.userAgent = userAgent
        self.locale = locale
        self.identityStore = identityStore
        self.tokenStore = tokenStore
        self.tlsPinStore = tlsPinStore
        self.logger = logger
        self.traceFrame = traceFrame
    }

    /// How far a `wss://` connection may trust a certificate beyond a stored pin and the system's trust.
    public struct CertificateTrust: Sendable, Hashable {
        /// Given for this connection (`--tls-fingerprint`, a setup code's `tlsFingerprint`): must match.
        public var expectedFingerprint: TLSFingerprint?
        /// Pin whatever is presented the first time (the person agreed in advance).
        public var trustOnFirstUse: Bool

        public init(expectedFingerprint: TLSFingerprint? = nil, trustOnFirstUse: Bool = false) {
            self.expectedFingerprint = expectedFingerprint
            self.trustOnFirstUse = trustOnFirstUse
        }
    }

    /// The trust rule a `wss://` connection made by this connector uses.
    public func tlsTrust(_ trust: CertificateTrust = CertificateTrust()) -> TLSTrust {
        TLSTrust(
            pinStore: tlsPinStore, expectedFingerprint: trust.expectedFingerprint,
            trustOnFirstUse: trust.trustOnFirstUse)
    }

    /// The configuration every connection of this program starts from.
    public func configuration(
        url: GatewayURL, credential: GatewayCredential, reconnect: ReconnectPolicy?
    ) -> GatewayConnectionConfiguration {
        GatewayConnectionConfiguration(
            url: url, credential: credential, client: client, locale: locale, userAgent: userAgent,
            reconnect: reconnect)
    }

    /// A socket opener through the pins: `wss://` is checked against them, and `ws://` to a host pinned
    /// for `wss://` is refused (a pin says that host is spoken to with TLS).
    public func transport(_ trust: CertificateTrust = CertificateTrust()) -> LiveWebSocketTransport {
        LiveWebSocketTransport(tlsTrust: tlsTrust(trust))
    }

    /// A connection to `url`; `configure` adjusts what this use needs (a role, scopes, timeouts).
    ///
    /// Its sockets go through the pins (``transport(_:)``) unless `standIn` is given: a gateway with no
    /// network at all (the app's in-memory demo). It is a parameter of this one call, never a setting, so
    /// no configured connector can open a real socket around the pins.
    public func connection(
        to url: GatewayURL,
        credential: GatewayCredential,
        reconnect: ReconnectPolicy?,
        trust: CertificateTrust = CertificateTrust(),
        through standIn: (any WebSocketTransport)? = nil,
        configure: (inout GatewayConnectionConfiguration) -> Void = { _ in }
    ) -> GatewayConnection {
        var configuration = configuration(url: url, credential: credential, reconnect: reconnect)
        configure(&configuration)
        return GatewayConnection(
            configuration: configuration, transport: standIn ?? transport(trust),
            identityStore: identityStore,
            tokenStore: tokenStore, logger: logger, traceFrame: traceFrame)
    }
}
