/// `client.id` values. Only ids that exist in both v3 and v4 gateways' closed enums are offered, so a
/// connect is never rejected for its id.
public enum ClientID: String, Sendable, Hashable, CaseIterable {
    case ios = "openclaw-ios"
    case macos = "openclaw-macos"
    case cli = "cli"
    case test = "test"
    /// The headless node host (`openclaw-chat node`): a computer that runs commands for the agent.
    case nodeHost = "node-host"
}

/// `client.mode` values valid in both v3 and v4.
public enum ClientMode: String, Sendable, Hashable, CaseIterable {
    case ui
    case cli
    case test
    /// A `role: "node"` connection.
    case node
}

/// Operator scopes. Requesting one the gateway does not know triggers a scope-upgrade pairing, so
/// the default set is the minimum a chat client needs.
public enum OperatorScope {
    public static let admin = "operator.admin"
    public static let read = "operator.read"
    public static let write = "operator.write"
    public static let approvals = "operator.approvals"
    public static let pairing = "operator.pairing"
    public static let talkSecrets = "operator.talk.secrets"
    /// Listing, reading and answering the agent's questions (`ask_user`).
    public static let questions = "operator.questions"

    public static let chatDefault = [read, write]
}

/// The `client` object of `connect`.
public struct ClientInfo: Sendable, Hashable {
    public var id: ClientID
    public var mode: ClientMode
    public var version: String
    /// Pinned by the gateway at pairing: must not change across OS updates, or the device must be
    /// re-approved. Callers pass a stable value such as `"linux"` or `"iOS"`, never an OS version.
    public var platform: String
    public var displayName: String?
    public var deviceFamily: String?
    public var modelIdentifier: String?
    public var instanceId: String?

    public init(
        id: ClientID,
        mode: ClientMode,
        version: String,
        platform: String,
        displayName: String? = nil,
        deviceFamily: String? = nil,
        modelIdentifier: String? = nil,
        instanceId: String? = nil
    ) {
        self.id = id
        self.mode = mode
        self.version = version
        self.platform = platform
        self.displayName = displayName
        self.deviceFamily = deviceFamily
        self.modelIdentifier = modelIdentifier
        self.instanceId = instanceId
    }

    public var json: JSONValue {
        .object(dropping: [
            ("id", .string(id.rawValue)), ("mode", .string(mode.rawValue)), ("version", .string(version)),
            ("platform", .string(platform)), ("displayName", .string(displayName.nilIfBlank)),
            ("deviceFamily", .string(deviceFamily.nilIfBlank)),
            ("modelIdentifier", .string(modelIdentifier.nilIfBlank)),
            ("instanceId", .string(instanceId.nilIfBlank)),
        ])
    }
}

/// The `device` proof of `connect`: `{id, publicKey, signature, signedAt, nonce}`.
public struct DeviceProof: Sendable, Hashable {
    public var id: String
    public var publicKey: String
    public var signature: String
    public var signedAt: Int
    public var nonce: String

    public init(id: String, publicKey: String, signature: String, signedAt: Int, nonce: String) {
        self.id = id
        self.publicKey = publicKey
        self.signature = signature
        self.signedAt = signedAt
        self.nonce = nonce
    }

    public var json: JSONValue {
        [
            "id": .string(id), "publicKey": .string(publicKey), "signature": .string(signature),
            "signedAt": .int(signedAt), "nonce": .string(nonce),
        ]
    }
}

/// The `auth` object of `connect`: only `token` and `password`, the fields every v3 and v4 gateway
/// accepts. (`deviceToken` exists in later schemas but gateways from early 2026 reject it; a stored
/// device token goes in `token`, which gateways also check against the device's tokens.) A setup code's
/// single-use `bootstrapToken` is sent only when pairing with one: gateways that issue setup codes accept
/// the field (v3 from April 2026, v4).
public struct ConnectAuth: Sendable, Hashable {
    /// The gateway's shared token, or this device's own token when no shared secret is configured.
    public var token: String?
    public var password: String?
    /// This device's saved token beside a refused shared `token`: sent only on the one retry a gateway
    /// offers with `canRetryWithDeviceToken`. Only gateways whose closed schema has this field send
    /// that hint (the February 2026 v3 schema has neither), so it never reaches one that rejects it.
    public var deviceToken: String?
    /// A setup code's bootstrap token: pairs this device once, then the device token takes over.
    public var bootstrapToken: String?

    public init(
        token: String? = nil, password: String? = nil, deviceToken: String? = nil, bootstrapToken: String? = nil
    ) {
        self.token = token
        self.password = password
        self.deviceToken = deviceToken
        self.bootstrapToken = bootstrapToken
    }

    public var isEmpty: Bool {
        token.nilIfBlank == nil && password.nilIfBlank == nil && deviceToken.nilIfBlank == nil
            && bootstrapToken.nilIfBlank == nil
    }

    /// The token that goes into the signed payload: the first of `token`, `deviceToken` and
    /// `bootstrapToken` that is set (the gateway's order). The password is never signed.
    public var signatureToken: String { token.nilIfBlank ?? deviceToken.nilIfBlank ?? bootstrapToken.nilIfBlank ?? "" }

    public var json: JSONValue {
        .object(dropping: [
            ("token", .string(token.nilIfBlank)), ("deviceToken", .string(deviceToken.nilIfBlank)),
            ("bootstrapToken", .string(bootstrapToken.nilIfBlank)),
            ("password", .string(password.nilIfBlank)),
        ])
    }
}

/// The params of the `connect` request.
///
/// Encoding is strict: ``json`` contains only fields of the closed v3 `ConnectParams` schema, which
/// every v4 gateway also accepts, so the same object is valid whichever version answers.
public struct ConnectParams: Sendable, Hashable {
    public var minProtocol: Int
    public var maxProtocol: Int
    public var client: ClientInfo
    public var role: GatewayRole
    public var scopes: [String]
    public var caps: [String]
    public var device: DeviceProof?
    public var auth: ConnectAuth?
    public var locale: String?
    public var userAgent: String?
    /// Node role only: the commands this node accepts (`node.invoke` names).
    public var commands: [String]?
    /// Node role only: what the node is allowed to do on its host (name → granted).
    public var permissions: [String: Bool]?
    /// Node role only: the node host's `PATH`, so the gateway can show which binaries it will find.
    public var pathEnv: String?

    public init(
        minProtocol: Int = ProtocolVersion.minimumSupported.rawValue,
        maxProtocol: Int = ProtocolVersion.maximumSupported.rawValue,
        client: ClientInfo,
        role: GatewayRole = .operator,
        scopes: [String] = OperatorScope.chatDefault,
        caps: [String] = [],
        device: DeviceProof? = nil,
        auth: ConnectAuth? = nil,
        locale: String? = nil,
        userAgent: String? = nil,
        commands: [String]? = nil,
        permissions: [String: Bool]? = nil,
        pathEnv: String? = nil
    ) {
        self.commands = commands
        self.permissions = permissions
        self.pathEnv = pathEnv
        self.minProtocol = minProtocol
        self.maxProtocol = maxProtocol
        self.client = client
        self.role = role
        self.scopes = scopes
        self.caps = caps
        self.device = device
        self.auth = auth
        self.locale = locale
        self.userAgent = userAgent
    }

    public var json: JSONValue {
        .object(dropping: [
            ("minProtocol", .int(minProtocol)), ("maxProtocol", .int(maxProtocol)), ("client", client.json),
            ("role", .string(role.rawValue)), ("scopes", .strings(scopes)), ("caps", .strings(caps)),
            ("device", device?.json), ("auth", auth.flatMap { $0.isEmpty ? JSONValue?.none : .some($0.json) }),
            ("locale", .string(locale.nilIfBlank)), ("userAgent", .string(userAgent.nilIfBlank)),
            ("commands", .strings(commands?.filter { !$0.isEmpty })),
            ("permissions", permissions.map { .object($0.mapValues(JSONValue.bool)) }),
            ("pathEnv", .string(pathEnv)),
        ])
    }
}

extension Optional where Wrapped == String {
    /// Nil for nil, empty or blank strings: closed schemas require `minLength: 1` on optional strings.
    var nilIfBlank: String? {
        guard let value = self, !value.allSatisfy(\.isWhitespace) else { return nil }
        return value
    }
}
