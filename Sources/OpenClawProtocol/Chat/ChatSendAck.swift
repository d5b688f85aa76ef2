/// The synchronous answer to `chat.send`. The gateway acks before the agent runs; the reply itself
/// arrives only as `chat` events for ``runId``.
public struct ChatSendAck: Sendable, Hashable {
    public var runId: String
    public var status: ChatSendStatus
    /// The gateway's explanation when a cached earlier attempt failed (`status: "error"`).
    public var summary: String?

    public init(runId: String, status: ChatSendStatus, summary: String? = nil) {
        self.runId = runId
        self.status = status
        self.summary = summary
    }

    /// Nil without a run id: the answer to a stop command (`{ok, aborted, runIds}`) is not an ack;
    /// read it as a ``ChatAbortResult``.
    public init?(json: JSONValue?) {
        self.init(json: json, idempotencyKey: nil)
    }

    /// An ack that does not echo `runId` (some third-party gateways answer `{status}`, `{}` or an `ok`
    /// response without payload) is the ack of the run the request named: the run id *is* the
    /// idempotency key. A stop command's answer (`aborted` or `runIds` present) is still nil.
    public init?(json: JSONValue?, idempotencyKey: String?) {
        let payload: JSONValue? = json ?? idempotencyKey.map { _ in JSONValue.object([:]) }
        guard let json = payload, json.objectValue != nil else { return nil }
        let isStopAnswer = json["aborted"] != nil || json["runIds"] != nil
        guard let runId = json["runId"]?.nonEmptyStringValue ?? (isStopAnswer ? nil : idempotencyKey) else {
            return nil
        }
        self.init(
            runId: runId,
            status: ChatSendStatus(wireValue: json["status"]?.nonEmptyStringValue ?? "started"),
            summary: json["summary"]?.stringValue
        )
    }
}

/// How the gateway took a `chat.send`.
public enum ChatSendStatus: Sendable, Hashable {
    /// A new run started.
    case started
    /// The same idempotency key is already running; no second run.
    case inFlight
    /// The same idempotency key finished recently; the cached success is replayed, no new run.
    case ok
    /// The same idempotency key failed recently; the cached failure is replayed.
    case error
    case other(String)

    public init(wireValue: String) {
        switch wireValue {
        case "started": self = .started
        case "in_flight": self = .inFlight
        case "ok": self = .ok
        case "error": self = .error
        default: self = .other(wireValue)
        }
    }

    public var wireValue: String {
        switch self {
        case .started: return "started"
        case .inFlight: return "in_flight"
        case .ok: return "ok"
        case .error: return "error"
        case .other(let value): return value
        }
    }
}
