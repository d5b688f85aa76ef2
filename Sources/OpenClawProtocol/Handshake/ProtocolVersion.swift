/// The gateway protocol versions this client speaks, and what differs between them.
///
/// We offer `minProtocol 3, maxProtocol 4`; the gateway answers with its own version in
/// `hello-ok.protocol` and every version-dependent behaviour (chat delta semantics above all) is
/// switched on that value, never on what we offered.
public enum ProtocolVersion: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Gateways up to early May 2026: cumulative chat deltas, optional `hello-ok.auth`.
    case v3 = 3
    /// Gateways since May 2026: `deltaText`/`replace` chat deltas, required `hello-ok.auth`.
    case v4 = 4

    public static let minimumSupported: ProtocolVersion = .v3
    public static let maximumSupported: ProtocolVersion = .v4

    public static func < (lhs: ProtocolVersion, rhs: ProtocolVersion) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "v\(rawValue)" }
}

/// Names of the events a chat client reacts to. Others are surfaced as unknown, never fatal.
public enum GatewayEventName {
    public static let connectChallenge = "connect.challenge"
    public static let tick = "tick"
    public static let shutdown = "shutdown"
    public static let chat = "chat"
    public static let agent = "agent"
    public static let health = "health"
    public static let presence = "presence"
    public static let devicePairRequested = "device.pair.requested"
    public static let devicePairResolved = "device.pair.resolved"
    /// To a node: run a command (the node answers with `node.invoke.result`).
    public static let nodeInvokeRequest = "node.invoke.request"
    /// To a node: stop a command still running.
    public static let nodeInvokeCancel = "node.invoke.cancel"
}

/// WebSocket close codes the gateway uses, with what each means to a client.
public enum GatewayCloseCode {
    public static let normal = 1000
    public static let protocolError = 1002
    public static let policyViolation = 1008
    public static let messageTooBig = 1009
    public static let serviceRestart = 1012
    public static let tryAgainLater = 1013
    public static let authChanged = 4001
    /// Used by clients (not the server) for their own tick timeout.
    public static let tickTimeout = 4000
}

/// Size limits from the protocol reference, used when the gateway has not told us otherwise.
public enum GatewayLimits {
    /// Any frame before `hello-ok` larger than this closes the socket with 1009.
    public static let maxPreauthPayloadBytes = 65_536
    /// `policy.maxPayload` default: 25 MiB.
    public static let defaultMaxPayloadBytes = 26_214_400
    /// `policy.maxBufferedBytes` default: 50 MiB.
    public static let defaultMaxBufferedBytes = 52_428_800
    /// `policy.tickIntervalMs` default of the v3 code.
    public static let defaultTickIntervalMs = 30_000
    /// Device signature clock skew tolerated by the gateway.
    public static let deviceSignatureSkewMs = 120_000
}
