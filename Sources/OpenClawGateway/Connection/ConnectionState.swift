import OpenClawProtocol

/// What an established connection agreed with the gateway.
///
/// What ``GatewayConnection/connect()`` returns, and what ``ConnectionState/connected(_:)`` carries. A new
/// session (with a new ``generation``) comes with every reconnect.
public struct GatewaySession: Sendable, Equatable {
    /// The gateway's `hello-ok`: its version, features, policy (tick interval, frame limit) and session
    /// defaults.
    public let hello: HelloOk
    /// The version the gateway speaks; switches delta semantics and error shapes.
    public let protocolVersion: ProtocolVersion
    /// This device's id, as the gateway knows it (derived from its public key).
    public let deviceId: String
    /// The scopes this socket holds: the ones requested (the gateway authorises against those).
    public let scopes: [String]
    /// Which socket this is; increases with every connect, so late work for an old socket is ignored.
    public let generation: Int
    /// Optional scopes the gateway would not grant without a new approval, so this socket went without
    /// them (nil when every requested scope was asked for).
    public var scopeRefusal: ScopeRefusal? = nil

    /// The canonical key of the main session (`agent:main:main` unless the gateway says otherwise).
    public var mainSessionKey: String {
        hello.snapshot.sessionDefaults?.mainSessionKey ?? "agent:main:main"
    }
}

/// Optional scopes (``GatewayConnectionConfiguration/optionalScopes``) a gateway refused: it asked for
/// a new approval of this device instead of granting them.
public struct ScopeRefusal: Sendable, Equatable {
    /// The optional scopes this connection went without.
    public var scopes: [String]
    /// The pairing request the refusal created, with the command that approves it; nil when the
    /// gateway refused the device token's scopes instead (`AUTH_SCOPE_MISMATCH`).
    public var pairing: GatewayError.PairingRequest?

    public init(scopes: [String], pairing: GatewayError.PairingRequest?) {
        self.scopes = scopes
        self.pairing = pairing
    }
}

/// The connection's life, as a UI shows it.
///
/// ```
/// disconnected ─connect()─▶ connecting ─hello-ok─▶ connected ─ends─▶ reconnecting ─delay─▶ connecting …
///                               │                                        ▲      │
///                               └─ refused ─▶ failed ◀── not retryable ──┘      └─ retryable: reconnecting
/// ```
/// `disconnected` carries why the last connection ended (with reconnecting off, or after `disconnect()`);
/// `failed` why the last attempt could not succeed, and stays until the person acts when retrying
/// cannot help; `reconnecting` when and why the next automatic attempt comes.
public enum ConnectionState: Sendable, Equatable {
    /// Not connected, and nothing will reconnect by itself: nil before the first attempt, else why the
    /// last connection ended.
    case disconnected(DisconnectReason?)
    /// An attempt is under way: socket, challenge, `connect`, `hello-ok`.
    case connecting
    /// The handshake is complete; requests can be sent.
    case connected(GatewaySession)
    /// Waiting for the next automatic attempt (see ``ReconnectPolicy``).
    case reconnecting(ReconnectStatus)
    /// The last attempt failed, and nothing will try again until ``GatewayConnection/connect()`` or
    /// ``GatewayConnection/reconnectNow()``.
    case failed(GatewayError)

    /// The session while connected; nil in every other state.
    public var session: GatewaySession? {
        if case .connected(let session) = self { return session }
        return nil
    }

    /// Whether a handshake is complete, so that requests can be sent.
    ///
    /// Matched in place rather than through ``session``: asked for every frame received, and a copy of
    /// the session retains each of its many fields.
    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }

    /// The pending automatic attempt, when the connection is waiting for one.
    public var reconnectStatus: ReconnectStatus? {
        if case .reconnecting(let status) = self { return status }
        return nil
    }

    /// Why there is no session, as the error a request made now fails with: the close code and
    /// reason of a connection that just ended (a gateway closing right after `hello-ok`), the refusal
    /// of the last attempt, or plain ``GatewayError/notConnected`` when nothing was tried.
    public var unavailableError: GatewayError {
        switch self {
        case .connected, .connecting, .disconnected(nil), .disconnected(.closedByClient?): return .notConnected
        case .disconnected(let reason?): return .connectionLost(reason)
        case .failed(let error): return error
        case .reconnecting(let status):
            switch status.cause {
            case .disconnected(let reason): return .connectionLost(reason)
            case .attemptFailed(let error): return error
            }
        }
    }
}

/// What a subscriber of the connection receives, in arrival order.
public enum GatewayEvent: Sendable, Equatable {
    /// A handshake completed (also after every reconnect): time to reload and reconcile. Boxed: the
    /// session is 432 bytes, and every event (one per delta) would otherwise be as large.
    indirect case connected(GatewaySession)
    /// A server event (everything except `connect.challenge`).
    case event(EventFrame)
    /// Frame `seq` jumped: events were lost (per-connection numbering makes every gap a real loss).
    case gap(expected: Int, received: Int)
    /// The connection ended.
    case disconnected(DisconnectReason)
    /// A frame of a type this client does not know; ignored, surfaced for diagnostics.
    case unknownFrame(type: String)
    /// A frame that could not be decoded at all; ignored, surfaced for diagnostics.
    case malformedFrame(FrameDecodingError)
}
