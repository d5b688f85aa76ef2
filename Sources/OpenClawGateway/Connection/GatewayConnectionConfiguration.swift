import OpenClawProtocol

/// The shared secret of a gateway: its token or its password (or none, for `auth.mode: none`).
///
/// Printing one never shows the secret: `description` says only which kind it is.
public enum GatewayCredential: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// No shared secret: for a gateway without auth, or a device that signs in with its saved device
    /// token.
    case none
    /// The gateway's token (`gateway.auth.token`).
    case token(String)
    /// The gateway's password (`gateway.auth.password`).
    case password(String)
    /// A setup code's single-use bootstrap token: pairs this device, whose device token is used after.
    case bootstrapToken(String)

    /// Never shows the secret.
    public var description: String {
        switch self {
        case .none: return "none"
        case .token: return "token(<redacted>)"
        case .password: return "password(<redacted>)"
        case .bootstrapToken: return "bootstrapToken(<redacted>)"
        }
    }

    public var debugDescription: String { description }
}

/// Everything a connection needs to know before it opens its socket.
public struct GatewayConnectionConfiguration: Sendable {
    /// The gateway's address.
    public var url: GatewayURL
    /// The shared secret sent in `connect`.
    public var credential: GatewayCredential
    /// Who is connecting: id, mode, version and platform, sent in `connect` and signed in the device
    /// proof. Keep the platform stable: the gateway asks for a new approval when it changes.
    public var client: ClientInfo
    /// The protocol versions offered in `connect`: 3...4, so that gateways from before and after May
    /// 2026 both accept us. Narrower only for tests and diagnostics.
    public var offeredProtocols: ClosedRange<Int>
    /// `operator` for a client that chats; `node` for a computer that runs commands for the agent.
    public var role: GatewayRole
    /// Requested scopes: read + write is what a chat client needs. Asking for more triggers a
    /// scope-upgrade pairing on the gateway.
    public var scopes: [String]
    /// Behaviour opt-ins. `tool-events` asks the gateway to send tool start/result `agent` events for
    /// our runs, which is how tool activity (name, arguments, duration) is shown live.
    public var caps: [String]
    /// Scopes asked for only while the gateway grants them without a new approval (exec approvals'
    /// `operator.approvals`). A gateway that answers them with a scope-upgrade pairing request is asked
    /// again at once without them, so chat keeps working; the session records what was withheld
    /// (``GatewaySession/scopeRefusal``) and the approve command that would grant it.
    public var optionalScopes: [String] = []
    /// The client's locale, sent in `connect` when set.
    public var locale: String?
    /// The client's user agent, sent in `connect` when set.
    public var userAgent: String?
    /// How long to wait for `connect.challenge` after the socket opens.
    public var challengeTimeout: Duration
    /// Budget for opening the socket and for the `connect` round trip, each.
    public var connectTimeout: Duration
    /// Timeout of a request that names none.
    public var defaultRequestTimeout: Duration
    /// Largest inbound message accepted. The gateway's `policy.maxPayload` (25 MiB) by default; the
    /// WebSocket libraries' 16 KiB default would close the socket on the first large history page.
    public var maxInboundFrameBytes: Int
    /// Silence longer than this many tick intervals means the connection is dead.
    public var tickTolerance: Int
    /// Automatic reconnecting after an established connection ends unexpectedly; nil turns it off.
    ///
    /// On by default because apps and the interactive terminal want a connection that heals itself.
    /// One-shot commands (send a message, print history) turn it off: they report a lost connection
    /// and exit instead of waiting for a gateway that may never come back.
    public var reconnect: ReconnectPolicy?
    /// Node role only (`role: "node"`): the commands, permissions and `PATH` the node declares in
    /// `connect`. Nil for operators, so their connect params stay exactly as before.
    public var nodeDeclaration: NodeDeclaration?
    /// Whether a refused shared token is retried once with this device's saved token when the gateway
    /// offers it (`canRetryWithDeviceToken`). Off where the point is to check the token itself (saving
    /// a login): a saved device token must not make a wrong token look right.
    public var retriesWithDeviceToken = true

    /// A configuration with the defaults a chat client needs: protocols 3 and 4, role `operator`, scopes
    /// read and write, tool events, and reconnecting on. Only the address and the client have no default.
    public init(
        url: GatewayURL,
        credential: GatewayCredential = .none,
        client: ClientInfo,
        offeredProtocols: ClosedRange<Int> = ProtocolVersion.minimumSupported
            .rawValue...ProtocolVersion.maximumSupported.rawValue,
        role: GatewayRole = .operator,
        scopes: [String] = OperatorScope.chatDefault,
        caps: [String] = ["tool-events"],
        locale: String? = nil,
        userAgent: String? = nil,
        challengeTimeout: Duration = .seconds(6),
        connectTimeout: Duration = .seconds(12),
        defaultRequestTimeout: Duration = .seconds(30),
        maxInboundFrameBytes: Int = GatewayLimits.defaultMaxPayloadBytes,
        tickTolerance: Int = 2,
        reconnect: ReconnectPolicy? = .standard
    ) {
        self.url = url
        self.credential = credential
        self.client = client
        self.offeredProtocols = offeredProtocols
        self.role = role
        self.scopes = scopes
        self.caps = caps
        self.locale = locale
        self.userAgent = userAgent
        self.challengeTimeout = challengeTimeout
        self.connectTimeout = connectTimeout
        self.defaultRequestTimeout = defaultRequestTimeout
        self.maxInboundFrameBytes = maxInboundFrameBytes
        self.tickTolerance = tickTolerance
        self.reconnect = reconnect
    }
}

/// What a node connection declares in `connect` beyond an operator's fields.
public struct NodeDeclaration: Sendable, Hashable {
    public var commands: [String]
    public var permissions: [String: Bool]
    public var pathEnv: String?

    public init(commands: [String], permissions: [String: Bool] = [:], pathEnv: String? = nil) {
        self.commands = commands
        self.permissions = permissions
        self.pathEnv = pathEnv
    }
}

extension Duration {
    /// Whole milliseconds, for messages and protocol fields.
    package var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
