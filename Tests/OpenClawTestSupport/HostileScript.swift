import OpenClawProtocol

/// What a ``HostileGateway`` does once a client has completed the handshake.
///
/// The handshake itself is valid (a `connect.challenge`, then `hello-ok` for any `connect`, signature
/// unchecked), so a real client reaches `connected`; everything after is scripted raw frames.
public struct HostileScript: Sendable {
    /// The `hello-ok.protocol`: 3 (cumulative deltas) or 4 (appending deltas).
    public var protocolNumber: Int
    /// The `hello-ok.policy` object, sent as is (no clamping: that is the point).
    public var policy: JSONValue
    /// Run right after `hello-ok`, for the run ``runId`` in session ``sessionKey``.
    public var afterHello: [HostileAction]
    /// Run after acknowledging a `chat.send` (status `started`), for the run the client named (its
    /// idempotency key) in the session it named.
    public var onChatSend: [HostileAction]
    /// Whether WebSocket pings from the client are answered with a pong.
    public var answersPings: Bool
    /// Where the answer to `chat.send` goes on the wire relative to ``onChatSend``'s first frames.
    public var ackPlacement: AckPlacement

    public static let runId = "hostile-run"
    public static let sessionKey = "agent:main:main"

    public init(
        protocolNumber: Int = 3,
        policy: JSONValue = HostileScript.policy(),
        afterHello: [HostileAction] = [],
        onChatSend: [HostileAction] = [],
        answersPings: Bool = true,
        ackPlacement: AckPlacement = .ownWrite
    ) {
        self.protocolNumber = protocolNumber
        self.policy = policy
        self.afterHello = afterHello
        self.onChatSend = onChatSend
        self.answersPings = answersPings
        self.ackPlacement = ackPlacement
    }

    /// A `hello-ok.policy` object; any value may be absurd.
    public static func policy(
        maxPayload: Int = GatewayLimits.defaultMaxPayloadBytes,
        maxBufferedBytes: Int = GatewayLimits.defaultMaxBufferedBytes,
        tickIntervalMs: Int = GatewayLimits.defaultTickIntervalMs
    ) -> JSONValue {
        [
            "maxPayload": .int(maxPayload), "maxBufferedBytes": .int(maxBufferedBytes),
            "tickIntervalMs": .int(tickIntervalMs),
        ]
    }
}

/// Where a ``HostileGateway`` puts its answer to `chat.send` relative to the events of the run: a client
/// must take the reply whichever comes first, and whether or not they share one read.
public enum AckPlacement: Sendable {
    /// The answer is flushed on its own, the events follow in later writes.
    case ownWrite
    /// The answer and the script's frames go out in one write (one burst on the wire).
    case withFirstEvents
    /// The script's frames, then the answer, in one write: events that name a run before any answer.
    case afterEvents
}

/// One scripted step. Floods are generated lazily and written as fast as the socket takes them (the
/// gateway waits while the client does not read), so a flood of gigabytes costs the test process
/// nothing but time.
public enum HostileAction: Sendable {
    /// One raw text frame.
    case text(String)
    /// One text message of `totalBytes` (not JSON) split into frames of `fragmentBytes`.
    case fragmentedText(totalBytes: Int, fragmentBytes: Int)
    /// `count` v3 chat deltas for the run, each holding the whole reply so far (`chunk` longer each
    /// time), then a `final` with the whole text when `final` is true.
    case cumulativeDeltas(count: Int, chunk: String, final: Bool)
    /// `count` v4 chat deltas for the run, each appending `chunk` (`deltaText`), then a `final`.
    case appendingDeltas(count: Int, chunk: String, final: Bool)
    /// v4 chat deltas for the run, one a part (`deltaText`), then a `final` whose message is
    /// `finalText` (the parts joined when nil): a reply with one part of any size.
    case replyParts([String], finalText: String?)
    /// `count` WebSocket pings.
    case pings(count: Int)
    /// A close frame with `code` and `reason`, then the TCP connection is closed.
    case close(code: Int, reason: String)
    /// The TCP connection closed with no close frame.
    case drop

    /// The text of reply delta `index` (0-based) of a flood of `chunk`s: what a client must end with.
    public static func replyText(chunk: String, count: Int) -> String {
        String(repeating: chunk, count: count)
    }
}
