/// The `hello-ok` payload that completes a handshake, for both protocol versions.
///
/// Decoded leniently: keys a later gateway adds (`features.capabilities`, `controlUiTabs`,
/// `policy.attachments`, `snapshot.appliedConfigHash` ...) are ignored, and missing optional parts
/// fall back to the protocol defaults.
public struct HelloOk: Sendable, Hashable {
    /// The version the gateway speaks (its own `PROTOCOL_VERSION`): the only source of truth for
    /// version-dependent behaviour. Raw, because a gateway may answer with a version we do not speak.
    public var protocolNumber: Int
    /// The gateway's version and this socket's connection id.
    public var server: ServerInfo
    /// The methods and events the gateway advertises.
    public var features: Features
    /// The gateway's state when the socket opened: uptime, session defaults, health.
    public var snapshot: Snapshot
    /// Limits for this socket: frame size, buffering, tick interval, attachments.
    public var policy: Policy
    /// The role and scopes granted, and the device token to keep; nil when the gateway sent none.
    public var auth: AuthInfo?
    public var canvasHostUrl: String?
    public var pluginSurfaceUrls: [String: String]
    /// The parts the gateway left out, for which the protocol defaults stand in (older and
    /// third-party gateways): shown as "unknown" rather than as if the gateway had said so.
    public var notAdvertised: HelloOkParts = []

    public init(
        protocolNumber: Int,
        server: ServerInfo,
        features: Features = Features(),
        snapshot: Snapshot = Snapshot(),
        policy: Policy = Policy(),
        auth: AuthInfo? = nil,
        canvasHostUrl: String? = nil,
        pluginSurfaceUrls: [String: String] = [:]
    ) {
        self.protocolNumber = protocolNumber
        self.server = server
        self.features = features
        self.snapshot = snapshot
        self.policy = policy
        self.auth = auth
        self.canvasHostUrl = canvasHostUrl
        self.pluginSurfaceUrls = pluginSurfaceUrls
    }

    /// The negotiated version, when it is one we speak.
    public var protocolVersion: ProtocolVersion? { ProtocolVersion(rawValue: protocolNumber) }

    /// Nil when the payload is not a `hello-ok` at all (no integer `protocol`). Every other part may be
    /// missing or `null`; ``notAdvertised`` records which defaults were used.
    public init?(json: JSONValue?) {
        guard let json, let protocolNumber = json["protocol"]?.lenientIntValue else { return nil }
        if let type = json["type"]?.stringValue, type != "hello-ok" { return nil }
        self.init(
            protocolNumber: protocolNumber,
            server: ServerInfo(json: json["server"]),
            features: Features(json: json["features"]),
            snapshot: Snapshot(json: json["snapshot"]),
            policy: Policy(json: json["policy"]),
            auth: json["auth"].flatMap(AuthInfo.init(json:)),
            canvasHostUrl: json["canvasHostUrl"]?.stringValue,
            pluginSurfaceUrls: json["pluginSurfaceUrls"]?.objectValue?.compactMapValues(\.stringValue) ?? [:]
        )
        notAdvertised = HelloOkParts.missing(in: json)
    }

    /// `hello-ok.server`.
    public struct ServerInfo: Sendable, Hashable {
        /// The gateway's release, `unknown` when it did not say.
        public var version: String
        /// The gateway's id for this socket.
        public var connId: String

        public init(version: String, connId: String) {
            self.version = version
            self.connId = connId
        }

        init(json: JSONValue?) {
            self.init(
                version: json?["version"]?.nonEmptyStringValue ?? "unknown",
                connId: json?["connId"]?.stringValue ?? ""
            )
        }
    }

    /// `hello-ok.features`: what the gateway says it supports.
    public struct Features: Sendable, Hashable {
        /// Method names the gateway accepts.
        public var methods: [String]
        /// Event names the gateway may send.
        public var events: [String]
        public var capabilities: [String]

        public init(methods: [String] = [], events: [String] = [], capabilities: [String] = []) {
            self.methods = methods
            self.events = events
            self.capabilities = capabilities
        }

        init(json: JSONValue?) {
            self.init(
                methods: json?["methods"]?.stringArrayValue ?? [],
                events: json?["events"]?.stringArrayValue ?? [],
                capabilities: json?["capabilities"]?.stringArrayValue ?? []
            )
        }
    }

    /// `hello-ok.snapshot.sessionDefaults`: how the gateway names its main session.
    public struct SessionDefaults: Sendable, Hashable {
        /// The agent a session without one belongs to.
        public var defaultAgentId: String
        /// The short name of the main session (`main`).
        public var mainKey: String
        /// The canonical key of the main session, e.g. `agent:main:main`; the alias `main` means the same.
        public var mainSessionKey: String
        public var scope: String?

        public init(
            defaultAgentId: String = "main",
            mainKey: String = "main",
            mainSessionKey: String = "agent:main:main",
            scope: String? = nil
        ) {
            self.defaultAgentId = defaultAgentId
            self.mainKey = mainKey
            self.mainSessionKey = mainSessionKey
            self.scope = scope
        }

        init?(json: JSONValue?) {
            guard let json, json.objectValue != nil else { return nil }
            let agent = json["defaultAgentId"]?.stringValue ?? "main"
            let mainKey = json["mainKey"]?.stringValue ?? "main"
            self.init(
                defaultAgentId: agent,
                mainKey: mainKey,
                mainSessionKey: json["mainSessionKey"]?.stringValue ?? "agent:\(agent):\(mainKey)",
                scope: json["scope"]?.stringValue
            )
        }
    }

    /// `hello-ok.snapshot`: the gateway's state when the socket opened.
    public struct Snapshot: Sendable, Hashable {
        public var uptimeMs: Int
        public var stateVersion: StateVersion
        /// How the gateway names its main session; nil when it did not say.
        public var sessionDefaults: SessionDefaults?
        /// The cached health summary as the gateway sent it.
        public var health: JSONValue
        public var presenceCount: Int

        public init(
            uptimeMs: Int = 0,
            stateVersion: StateVersion = StateVersion(presence: 0, health: 0),
            sessionDefaults: SessionDefaults? = nil,
            health: JSONValue = [:],
            presenceCount: Int = 0
        ) {
            self.uptimeMs = uptimeMs
            self.stateVersion = stateVersion
            self.sessionDefaults = sessionDefaults
            self.health = health
            self.presenceCount = presenceCount
        }

        init(json: JSONValue?) {
            self.init(
                uptimeMs: json?["uptimeMs"]?.lenientIntValue ?? 0,
                stateVersion: StateVersion(json: json?["stateVersion"]) ?? StateVersion(presence: 0, health: 0),
                sessionDefaults: SessionDefaults(json: json?["sessionDefaults"]),
                health: json?["health"] ?? [:],
                presenceCount: json?["presence"]?.arrayValue?.count ?? 0
            )
        }
    }

    /// `hello-ok.policy`: the limits of this socket, or the protocol's defaults where the gateway said
    /// nothing.
    public struct Policy: Sendable, Hashable {
        /// Largest frame either side may send after the handshake.
        public var maxPayload: Int
        public var maxBufferedBytes: Int
        /// Ticks arrive at this interval; silence for twice as long means the connection is dead.
        public var tickIntervalMs: Int
        /// v4 per-attachment ceilings (decoded bytes), when the gateway advertises them.
        public var attachmentMaxBytes: Int?
        public var attachmentMaxImageBytes: Int?

        public init(
            maxPayload: Int = GatewayLimits.defaultMaxPayloadBytes,
            maxBufferedBytes: Int = GatewayLimits.defaultMaxBufferedBytes,
            tickIntervalMs: Int = GatewayLimits.defaultTickIntervalMs,
            attachmentMaxBytes: Int? = nil,
            attachmentMaxImageBytes: Int? = nil
        ) {
            self.maxPayload = maxPayload
            self.maxBufferedBytes = maxBufferedBytes
            self.tickIntervalMs = tickIntervalMs
            self.attachmentMaxBytes = attachmentMaxBytes
            self.attachmentMaxImageBytes = attachmentMaxImageBytes
        }

        init(json: JSONValue?) {
            self.init(
                maxPayload: Self.positive(json?["maxPayload"]) ?? GatewayLimits.defaultMaxPayloadBytes,
                maxBufferedBytes: Self.positive(json?["maxBufferedBytes"]) ?? GatewayLimits.defaultMaxBufferedBytes,
                tickIntervalMs: Self.positive(json?["tickIntervalMs"]) ?? GatewayLimits.defaultTickIntervalMs,
                attachmentMaxBytes: Self.positive(json?["attachments"]?["maxBytes"]),
                attachmentMaxImageBytes: Self.positive(json?["attachments"]?["maxImageBytes"])
            )
        }

        /// A positive count, also from a numeric string; nil (use the default) for anything else.
        static func positive(_ json: JSONValue?) -> Int? {
            json?.lenientIntValue.flatMap { $0 > 0 ? $0 : nil }
        }
    }

    /// `hello-ok.auth`: the role and scopes granted, and the device token to reuse next time.
    public struct AuthInfo: Sendable, Hashable {
        public var role: GatewayRole
        public var scopes: [String]
        public var deviceToken: String?
        public var issuedAtMs: Int?
        /// Tokens for other roles, handed over after a setup-code (bootstrap) connect.
        public var deviceTokens: [IssuedDeviceToken]

        public init(
            role: GatewayRole, scopes: [String], deviceToken: String? = nil, issuedAtMs: Int? = nil,
            deviceTokens: [IssuedDeviceToken] = []
        ) {
            self.role = role
            self.scopes = scopes
            self.deviceToken = deviceToken
            self.issuedAtMs = issuedAtMs
            self.deviceTokens = deviceTokens
        }

        init?(json: JSONValue) {
            guard json.objectValue != nil else { return nil }
            self.init(
                role: json["role"]?.stringValue.map(GatewayRole.init(rawValue:)) ?? .operator,
                scopes: json["scopes"]?.stringArrayValue ?? [],
                deviceToken: json["deviceToken"]?.nonEmptyStringValue,
                issuedAtMs: WireTimestamp.epochMilliseconds(json["issuedAtMs"]),
                deviceTokens: (json["deviceTokens"]?.arrayValue ?? []).compactMap(IssuedDeviceToken.init(json:))
            )
        }
    }

    /// One entry of `hello-ok.auth.deviceTokens`; entries without a token or role are skipped.
    public struct IssuedDeviceToken: Sendable, Hashable {
        public var deviceToken: String
        public var role: GatewayRole
        public var scopes: [String]
        public var issuedAtMs: Int?

        public init(deviceToken: String, role: GatewayRole, scopes: [String], issuedAtMs: Int? = nil) {
            self.deviceToken = deviceToken
            self.role = role
            self.scopes = scopes
            self.issuedAtMs = issuedAtMs
        }

        init?(json: JSONValue) {
            guard let token = json["deviceToken"]?.nonEmptyStringValue, let role = json["role"]?.nonEmptyStringValue
            else { return nil }
            self.init(
                deviceToken: token, role: GatewayRole(rawValue: role), scopes: json["scopes"]?.stringArrayValue ?? [],
                issuedAtMs: WireTimestamp.epochMilliseconds(json["issuedAtMs"]))
        }
    }
}
