import OpenClawProtocol

/// The shared secret a test gateway expects in `connect.auth`.
public enum TestGatewayAuth: Sendable, Hashable {
    /// `auth.token` must equal this string (the usual gateway mode).
    case token(String)
    /// `auth.password` must equal this string.
    case password(String)
    /// Any client is admitted without a shared secret.
    case none
}

/// How unknown or changed devices are paired.
public enum TestGatewayPairingMode: Sendable, Hashable {
    /// Loopback behaviour: unknown devices and scope or role upgrades are approved silently. A changed
    /// platform or device family still needs approval, as on a real gateway.
    case automatic
    /// Remote behaviour: every pairing needs ``TestGateway/approvePairing(requestId:)``.
    case requireApproval
}

/// What a v4 chat `delta` carries besides `deltaText`.
public enum V4DeltaStyle: Sendable, Hashable {
    /// `deltaText` plus the cumulative `message` snapshot (mid-2026 gateways).
    case withMessage
    /// `deltaText` only (late gateways): a client must build the text from the increments.
    case withoutMessage
}

/// How a request that lacks a scope is refused.
public enum MissingScopeStyle: Sendable, Hashable {
    /// `INVALID_REQUEST "missing scope: X"` (v3 and early v4).
    case legacy
    /// `FORBIDDEN "missing scope: X"` with `details {code: MISSING_SCOPE, missingScope, requiredScopes}`.
    case forbidden
}

/// How frame `seq` numbers broadcast events.
public enum FrameSeqStyle: Sendable, Hashable {
    /// One counter per gateway process, taken before each broadcast is filtered by scope: a socket sees
    /// gaps for events it may not see (v3 code of 2026-04-12, `createGatewayBroadcaster` in
    /// `src/gateway/server-broadcast.ts`). Gaps are routine, not loss.
    case global
    /// One counter per socket (late v3 from 2026-04-21, and v4): a gap means a frame was lost.
    case perConnection
}

/// Everything a test gateway is started with. Every field has a default, so `.init()` is a v4 gateway
/// with token auth `"test-token"`, silent loopback pairing and the reference limits.
public struct TestGatewayConfiguration: Sendable {
    /// The version this gateway speaks: 3 or 4. Any other number emulates a gateway that expects that
    /// version (the short-lived "v5 beta"), which rejects clients whose range does not contain it.
    public var protocolNumber: Int
    public var host: String
    /// 0 binds an ephemeral port; read it from ``TestGateway/port``.
    public var port: Int
    public var auth: TestGatewayAuth
    public var pairing: TestGatewayPairingMode
    /// Advertised in `hello-ok.policy` and used as the tick period.
    public var tickIntervalMs: Int
    /// `Origin` header values accepted at connect; any other Origin is refused as a browser.
    public var allowedOrigins: [String]
    /// A socket that has not completed `connect` by then is closed with 1000.
    public var handshakeTimeoutMs: Int
    /// Largest message accepted after the handshake (`policy.maxPayload`).
    public var maxPayload: Int
    public var v4Deltas: V4DeltaStyle
    public var missingScopeStyle: MissingScopeStyle
    /// `hello-ok.server.version`.
    public var serverVersion: String
    public var agent: ScriptedAgent
    /// `chat.history` per-text truncation when the request gives no `maxChars` (the reference default).
    public var historyMaxChars: Int
    /// Dialect switches: how this gateway departs from the reference one (none by default).
    public var quirks: GatewayQuirks
    /// How long a finished `chat.send` key is remembered (upstream `DEDUPE_TTL_MS`, 5 min); after that a
    /// resend with the same key starts a new run.
    public var dedupeTTLMs: Int
    /// How many finished keys are remembered, oldest forgotten first (upstream `DEDUPE_MAX`, 1,000).
    public var dedupeMaxEntries: Int
    /// At most one chat `delta` per run in this window; the text in between is coalesced into the next
    /// delta and flushed before a tool call and the terminal event (upstream `emitChatDelta`, 150 ms).
    /// 0 sends one delta per streamed chunk.
    public var deltaThrottleMs: Int
    public var frameSeq: FrameSeqStyle
    /// Failed sign-ins lock the address out for a while (nil: no limit, the default).
    public var authRateLimit: AuthRateLimit?
    /// Serve `wss://` with a self-signed certificate made at start; nil serves plain `ws://`.
    public var tls: TestGatewayTLS?
    /// How long an exec approval waits for a decision before it expires (upstream's default: 30
    /// minutes). Tests shorten it to see expiry.
    public var approvalTimeoutMs = 1_800_000
    /// How long a scripted question waits for an answer (upstream `ask_user` default: 900 s).
    public var questionTimeoutMs = 900_000
    /// Advertised in v4 `hello-ok.policy.attachments` and enforced; nil advertises none (older v4
    /// gateways), and then 20 MiB per file and 5,000,000 bytes per image are enforced. v3 ignores it:
    /// 5,000,000 bytes, images only.
    public var attachmentLimits: TestAttachmentLimits?
    public var historyImages: HistoryImageForm
    /// How `artifacts.download` answers: a ticketed URL on this gateway (managed images), or inline.
    public var artifactDelivery = ArtifactDelivery.url
    /// A URL `artifacts.download` answers instead of its own (a hostile or broken gateway's); nil: its own.
    public var artifactURLOverride: String?
    /// Whether the `artifacts.download` summary states `sizeBytes` (optional upstream): without it a
    /// client learns the size only as the bytes arrive.
    public var artifactStatesSize = true
    /// Called with every text frame a client sends and every frame the gateway queues, in order per
    /// socket; tests validate them against the protocol schema. Nil: no tap.
    public var frameTap: (@Sendable (TappedFrame) -> Void)?

    public init(
        protocolNumber: Int = 4,
        host: String = "127.0.0.1",
        port: Int = 0,
        auth: TestGatewayAuth = .token("test-token"),
        pairing: TestGatewayPairingMode = .automatic,
        tickIntervalMs: Int = GatewayLimits.defaultTickIntervalMs,
        allowedOrigins: [String] = [],
        handshakeTimeoutMs: Int = 10_000,
        maxPayload: Int = GatewayLimits.defaultMaxPayloadBytes,
        v4Deltas: V4DeltaStyle = .withMessage,
        missingScopeStyle: MissingScopeStyle? = nil,
        serverVersion: String? = nil,
        agent: ScriptedAgent = ScriptedAgent(),
        historyMaxChars: Int = 12_000,
        quirks: GatewayQuirks = [],
        dedupeTTLMs: Int = 300_000,
        dedupeMaxEntries: Int = 1_000,
        deltaThrottleMs: Int = 150,
        frameSeq: FrameSeqStyle? = nil,
        authRateLimit: AuthRateLimit? = nil,
        tls: TestGatewayTLS? = nil,
        attachmentLimits: TestAttachmentLimits? = .reference,
        historyImages: HistoryImageForm = .omitted
    ) {
        self.protocolNumber = protocolNumber
        self.host = host
        self.port = port
        self.auth = auth
        self.pairing = pairing
        self.tickIntervalMs = tickIntervalMs
        self.allowedOrigins = allowedOrigins
        self.handshakeTimeoutMs = handshakeTimeoutMs
        self.maxPayload = maxPayload
        self.v4Deltas = v4Deltas
        self.missingScopeStyle = missingScopeStyle ?? (protocolNumber >= 4 ? .forbidden : .legacy)
        self.serverVersion = serverVersion ?? Self.defaultServerVersion(protocolNumber: protocolNumber)
        self.agent = agent
        self.historyMaxChars = historyMaxChars
        self.quirks = quirks
        self.dedupeTTLMs = dedupeTTLMs
        self.dedupeMaxEntries = dedupeMaxEntries
        self.deltaThrottleMs = deltaThrottleMs
        self.frameSeq = frameSeq ?? (protocolNumber >= 4 ? .perConnection : .global)
        self.authRateLimit = authRateLimit
        self.tls = tls
        self.attachmentLimits = attachmentLimits
        self.historyImages = historyImages
    }

    /// A release string of the era each version belongs to, so version-sniffing clients see something real.
    static func defaultServerVersion(protocolNumber: Int) -> String {
        switch protocolNumber {
        case ...3: return "2026.4.12-test"
        case 4: return "2026.6.1-test"
        default: return "2026.5.16-beta.4-test"
        }
    }

    /// Whether the v4 wire shapes apply (`hello-ok.auth` always, `deltaText`, v4 mismatch details).
    var speaksV4Shapes: Bool { protocolNumber >= 4 }
}
