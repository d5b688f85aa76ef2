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
    /// Opens every socket instead of the real one when set: the demo's in-memory gateway, tests. When nil,
    /// sockets go through the pins: `wss://` is checked against them, and `ws://` to a host pinned for
    /// `wss://` is refused (a pin says that host is spoken to with TLS).
    public var transport: (any WebSocketTransport)?
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
        transport: (any WebSocketTransport)? = nil,
        logger: Logger = Logger(label: "openclaw.gateway"),
        traceFrame: (@Sendable (FrameTrace) -> Void)? = nil
    ) {
        self.client = client
        self.userAgent = userAgent
        self.locale = locale
        self.identityStore = identityStore
        self.tokenStore = tokenStore
        self.tlsPinStore = tlsPinStore
        self.transport = transport
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

    /// A connection to `url`; `configure` adjusts what this use needs (a role, scopes, timeouts).
    public func connection(
        to url: GatewayURL,
        credential: GatewayCredential,
        reconnect: ReconnectPolicy?,
        trust: CertificateTrust = CertificateTrust(),
        configure: (inout GatewayConnectionConfiguration) -> Void = { _ in }
    ) -> GatewayConnection {
        var configuration = configuration(url: url, credential: credential, reconnect: reconnect)
        configure(&configuration)
        return GatewayConnection(
            configuration: configuration, transport: transport ?? WebSocketKitTransport(tlsTrust: tlsTrust(trust)),
            identityStore: identityStore,
            tokenStore: tokenStore, logger: logger, traceFrame: traceFrame)
    }
}
