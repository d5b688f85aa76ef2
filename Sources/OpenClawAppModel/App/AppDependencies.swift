import Foundation
import Logging
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// Waits for a duration; injected so that slow schedules (pairing retries, search debounce) run
/// instantly or step by step in tests. Must throw `CancellationError` when its task is cancelled.
public typealias Sleep = @Sendable (Duration) async throws -> Void

/// Everything the app model needs from the outside world, each behind a small protocol or a function: the
/// live app passes Keychain stores and SQLite, tests pass in-memory ones and a controllable sleep.
public struct AppDependencies: Sendable {
    public var credentials: any CredentialStore
    public var identityStore: any DeviceIdentityStore
    public var tokenStore: any DeviceTokenStore
    public var chatStore: any ChatStore
    /// How the app introduces itself; see ``AppClientIdentity/ios(version:displayName:deviceFamily:)``.
    public var client: ClientInfo
    public var logger: Logger
    public var sleep: Sleep
    public var pairingSchedule: PairingRetrySchedule
    public var searchDebounce: Duration
    /// Whether connections record redacted frames for the debug view. Off in release builds:
    /// redacting re-parses every frame, which doubles the parsing cost of a long streamed reply.
    public var recordsFrames: Bool
    /// How many frames the debug view keeps.
    public var frameCapacity: Int
    /// BCP 47, sent in `connect.locale`.
    public var locale: String?
    /// Automatic reconnecting after an established connection ends; nil turns it off (tests of the
    /// foreground path).
    public var reconnect: ReconnectPolicy?
    /// Whether this device approves the agent's commands (the user's setting): connections declare the
    /// `exec-approvals` cap and ask for `operator.approvals` (optional: a gateway that wants the scope
    /// approved first still gives a working chat, and the approvals model says what to approve).
    public var approvesCommands = false
    /// Whether connections ask for `operator.questions` and show the agent's question cards.
    public var answersQuestions = false
    /// Certificate pins of `wss://` gateways the person trusted (a self-signed home gateway): the live
    /// app keeps them in the Keychain. Every socket goes through them: `wss://` is checked against pins
    /// and setup-code fingerprints, and `ws://` to a pinned host is refused.
    public var tlsPinStore: any TLSPinStore = InMemoryTLSPinStore()
    /// Starts the gateway demo mode talks to; nil in a build without a demo (the model then says so). The
    /// app passes `DemoGateway.inMemory` from `OpenClawAppDemo`, which keeps the test gateway out of this
    /// module.
    public var demoGateway: DemoGatewayFactory?
    /// Finds gateways on the local network for onboarding; nil where there is none (then onboarding
    /// shows only the form).
    public var gatewayBrowser: (any GatewayBrowser)?
    /// What the chat store said when it opened, if it had to recover a damaged file (`StoreRecovery.warning`:
    /// where the file went and how many queued messages could not be recovered). Shown once by the app.
    public var storeWarning: String?

    public init(
        credentials: any CredentialStore,
        identityStore: any DeviceIdentityStore,
        tokenStore: any DeviceTokenStore,
        chatStore: any ChatStore,
        client: ClientInfo,
        logger: Logger = Logger(label: "openclaw.app"),
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) },
        pairingSchedule: PairingRetrySchedule = PairingRetrySchedule(),
        searchDebounce: Duration = .milliseconds(250),
        recordsFrames: Bool = false,
        frameCapacity: Int = 500,
        locale: String? = Locale.current.identifier.replacingOccurrences(of: "_", with: "-"),
        reconnect: ReconnectPolicy? = .standard
    ) {
        self.credentials = credentials
        self.identityStore = identityStore
        self.tokenStore = tokenStore
        self.chatStore = chatStore
        self.client = client
        self.logger = logger
        self.sleep = sleep
        self.pairingSchedule = pairingSchedule
        self.searchDebounce = searchDebounce
        self.recordsFrames = recordsFrames
        self.frameCapacity = frameCapacity
        self.locale = locale
        self.reconnect = reconnect
    }

    /// What makes a connection the app's: its client identity, locale, user agent, this device's identity
    /// and tokens (unless others are given: the demo's are throwaway) and the pins.
    func connector(
        traceFrame: (@Sendable (FrameTrace) -> Void)?,
        identityStore: (any DeviceIdentityStore)? = nil,
        tokenStore: (any DeviceTokenStore)? = nil
    ) -> GatewayConnector {
        GatewayConnector(
            client: client, userAgent: "openclaw-ios/\(client.version)", locale: locale,
            identityStore: identityStore ?? self.identityStore, tokenStore: tokenStore ?? self.tokenStore,
            tlsPinStore: tlsPinStore, logger: logger, traceFrame: traceFrame)
    }

    /// A connection configured as every connection of the app is, asking for the approvals and questions
    /// scopes when the person's settings say this device answers them.
    func makeConnection(
        url: GatewayURL,
        credential: GatewayCredential,
        traceFrame: (@Sendable (FrameTrace) -> Void)?,
        identityStore: (any DeviceIdentityStore)? = nil,
        tokenStore: (any DeviceTokenStore)? = nil,
        expectedFingerprint: TLSFingerprint? = nil,
        through standIn: (any WebSocketTransport)? = nil
    ) -> GatewayConnection {
        let approvesCommands = approvesCommands
        let answersQuestions = answersQuestions
        return connector(traceFrame: traceFrame, identityStore: identityStore, tokenStore: tokenStore).connection(
            to: url, credential: credential, reconnect: reconnect,
            trust: GatewayConnector.CertificateTrust(expectedFingerprint: expectedFingerprint), through: standIn
        ) { configuration in
            if approvesCommands { configuration.enableApprovals(required: false) }
            if answersQuestions { configuration.enableQuestions(required: false) }
        }
    }
}
