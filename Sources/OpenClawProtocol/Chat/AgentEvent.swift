/// The payload of an `agent` event: the fine-grained stream of one run (lifecycle, text, thinking,
/// tools). The chat engine reads it for activity (tool steps, thinking) and never for reply text,
/// which late gateways stop sending here.
public struct AgentEvent: Sendable, Hashable {
    public var runId: String
    /// Per-run counter over all streams. Absent on the gateway's own `seq gap` notices.
    public var seq: Int?
    /// Gateway time of the event, epoch ms: the clock for step durations.
    public var ts: Int?
    /// Present on live frames when the gateway knows the session.
    public var sessionKey: String?
    public var stream: AgentStream

    public init(runId: String, seq: Int?, ts: Int?, sessionKey: String? = nil, stream: AgentStream) {
        self.runId = runId
        self.seq = seq
        self.ts = ts
        self.sessionKey = sessionKey
        self.stream = stream
    }

    /// Nil without a run id or stream name.
    public init?(json: JSONValue?) {
        guard let json, let runId = json["runId"]?.nonEmptyStringValue,
            let streamName = json["stream"]?.nonEmptyStringValue
        else { return nil }
        self.init(
            runId: runId,
            seq: json["seq"]?.lenientIntValue,
            ts: WireTimestamp.epochMilliseconds(json["ts"]),
            sessionKey: json["sessionKey"]?.nonEmptyStringValue,
            stream: AgentStream(name: streamName, data: json["data"] ?? .object([:]))
        )
    }

    /// The payload of an `agent` event frame; nil for other events or an unplaceable payload.
    public init?(frame: EventFrame) {
        guard frame.event == GatewayEventName.agent else { return nil }
        self.init(json: frame.payload)
    }
}

/// The stream an agent event belongs to, with its data decoded where the chat engine needs it.
/// Streams or phases it does not use stay raw in ``other(name:data:)``.
public enum AgentStream: Sendable, Hashable {
    case lifecycle(AgentLifecyclePhase)
    /// Assistant text: `text` is cumulative for the current assistant message, `delta` the increment.
    case assistant(text: String?, delta: String?)
    /// Reasoning text: `text` is cumulative, `delta` the increment.
    case thinking(text: String?, delta: String?)
    case tool(AgentToolPhase)
    case other(name: String, data: JSONValue)

    public init(name: String, data: JSONValue) {
        switch name {
        case "lifecycle":
            self = .lifecycle(AgentLifecyclePhase(data: data))
        case "assistant":
            self = .assistant(text: data["text"]?.stringValue, delta: data["delta"]?.stringValue)
        case "thinking":
            self = .thinking(text: data["text"]?.stringValue, delta: data["delta"]?.stringValue)
        case "tool":
            if let phase = AgentToolPhase(data: data) {
                self = .tool(phase)
            } else {
                self = .other(name: name, data: data)
            }
        default:
            self = .other(name: name, data: data)
        }
    }
}

/// The `lifecycle` stream: a run's start and end as the agent saw them.
public enum AgentLifecyclePhase: Sendable, Hashable {
    case start
    case end
    case error(String?)
    case other(String)

    init(data: JSONValue) {
        switch data["phase"]?.stringValue ?? "" {
        case "start": self = .start
        case "end": self = .end
        case "error": self = .error(data["error"]?.stringValue)
        case let phase: self = .other(phase)
        }
    }
}

/// The `tool` stream (sent only to clients that advertise the `tool-events` capability).
/// `args` and results may be missing: the gateway strips results unless the session is verbose.
public enum AgentToolPhase: Sendable, Hashable {
    case start(name: String, toolCallId: String, args: JSONValue?)
    case update(name: String, toolCallId: String, partialResult: JSONValue?)
    case result(name: String, toolCallId: String, isError: Bool, result: JSONValue?)

    /// Nil for an unknown phase or an event without a tool call id, which cannot be tracked.
    init?(data: JSONValue) {
        guard let toolCallId = data["toolCallId"]?.nonEmptyStringValue else { return nil }
        let name = data["name"]?.nonEmptyStringValue ?? "tool"
        switch data["phase"]?.stringValue {
        case "start"?: self = .start(name: name, toolCallId: toolCallId, args: data["args"])
        case "update"?: self = .update(name: name, toolCallId: toolCallId, partialResult: data["partialResult"])
        case "result"?:
            self = .result(
                name: name,
                toolCallId: toolCallId,
                isError: data["isError"]?.boolValue ?? false,
                result: data["result"]
            )
        default: return nil
        }
    }

    public var toolCallId: String {
        switch self {
        case .start(_, let id, _), .update(_, let id, _), .result(_, let id, _, _): return id
        }
    }

    public var name: String {
        switch self {
        case .start(let name, _, _), .update(let name, _, _), .result(let name, _, _, _): return name
        }
    }
}
