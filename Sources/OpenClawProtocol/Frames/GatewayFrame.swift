/// A request frame, `{"type":"req","id","method","params"?}`: the only frame a client sends.
public struct RequestFrame: Sendable, Hashable {
    public var id: String
    public var method: String
    public var params: JSONValue?

    public init(id: String, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// The frame as JSON, with exactly the four fields the closed `RequestFrame` schema allows.
    public var json: JSONValue {
        .object(dropping: [("type", "req"), ("id", .string(id)), ("method", .string(method)), ("params", params)])
    }
}

/// A response frame, `{"type":"res","id","ok","payload"?,"error"?}`.
public struct ResponseFrame: Sendable, Hashable {
    public var id: String
    public var ok: Bool
    public var payload: JSONValue?
    public var error: ErrorShape?

    public init(id: String, ok: Bool, payload: JSONValue? = nil, error: ErrorShape? = nil) {
        self.id = id
        self.ok = ok
        self.payload = payload
        self.error = error
    }

    public var json: JSONValue {
        .object(dropping: [
            ("type", "res"), ("id", .string(id)), ("ok", .bool(ok)), ("payload", payload), ("error", error?.json),
        ])
    }
}

/// `{presence, health}` version counters carried by `presence` and `health` events.
public struct StateVersion: Sendable, Hashable {
    public var presence: Int
    public var health: Int

    public init(presence: Int, health: Int) {
        self.presence = presence
        self.health = health
    }

    init?(json: JSONValue?) {
        guard let json, let presence = json["presence"]?.lenientIntValue, let health = json["health"]?.lenientIntValue
        else {
            return nil
        }
        self.init(presence: presence, health: health)
    }

    public var json: JSONValue { ["presence": .int(presence), "health": .int(health)] }
}

/// An event frame, `{"type":"event","event","payload"?,"seq"?,"stateVersion"?}`.
public struct EventFrame: Sendable, Hashable {
    public var event: String
    public var payload: JSONValue?
    /// Per-connection frame sequence number; absent on targeted events and on `connect.challenge`.
    public var seq: Int?
    public var stateVersion: StateVersion?

    public init(event: String, payload: JSONValue? = nil, seq: Int? = nil, stateVersion: StateVersion? = nil) {
        self.event = event
        self.payload = payload
        self.seq = seq
        self.stateVersion = stateVersion
    }

    public var json: JSONValue {
        .object(dropping: [
            ("type", "event"), ("event", .string(event)), ("payload", payload), ("seq", .int(seq)),
            ("stateVersion", stateVersion?.json),
        ])
    }
}

/// Any frame that can arrive on a gateway socket.
///
/// Decoding is lenient: unknown keys are ignored and an unknown `type` is surfaced as
/// ``unknown(type:raw:)`` rather than failing, so a newer gateway never breaks an older client.
public enum GatewayFrame: Sendable, Hashable {
    case request(RequestFrame)
    case response(ResponseFrame)
    case event(EventFrame)
    case unknown(type: String, raw: JSONValue)
}

/// Why an inbound frame could not be understood at all.
public enum FrameDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not JSON.
    case malformedJSON(JSONParseError)
    /// The JSON is not an object with a string `type`.
    case notAFrame
    /// A known frame type lacks a field it cannot do without (`id` of a response, `event` of an event).
    case missingField(frameType: String, field: String)

    public var description: String {
        switch self {
        case .malformedJSON(let error): return "malformed JSON frame: \(error)"
        case .notAFrame: return "frame is not a JSON object with a \"type\""
        case .missingField(let type, let field): return "\(type) frame without \"\(field)\""
        }
    }
}

/// Turns inbound text or binary WebSocket messages into ``GatewayFrame`` values, and frames into text.
public struct FrameCodec: Sendable {
    public var parser: JSONParser

    public init(parser: JSONParser = JSONParser()) {
        self.parser = parser
    }

    public func decode(_ bytes: some Collection<UInt8>) throws(FrameDecodingError) -> GatewayFrame {
        try Self.frame(from: Result { () throws(JSONParseError) in try parser.parse(bytes) })
    }

    /// Text frames, the form gateways send: parsed in place from the string's UTF-8.
    public func decode(_ text: String) throws(FrameDecodingError) -> GatewayFrame {
        try Self.frame(from: Result { () throws(JSONParseError) in try parser.parse(text) })
    }

    private static func frame(
        from parsed: Result<JSONValue, JSONParseError>
    ) throws(FrameDecodingError)
        -> GatewayFrame
    {
        switch parsed {
        case .success(let json): return try frame(from: json)
        case .failure(let error): throw .malformedJSON(error)
        }
    }

    public static func frame(from json: JSONValue) throws(FrameDecodingError) -> GatewayFrame {
        guard let type = json["type"]?.stringValue else { throw .notAFrame }
        switch type {
        case "req":
            guard let id = json["id"]?.stringValue else { throw .missingField(frameType: type, field: "id") }
            guard let method = json["method"]?.stringValue else {
                throw .missingField(frameType: type, field: "method")
            }
            return .request(RequestFrame(id: id, method: method, params: json["params"]))
        case "res":
            guard let id = json["id"]?.stringValue else { throw .missingField(frameType: type, field: "id") }
            return .response(
                ResponseFrame(
                    id: id,
                    ok: json["ok"]?.boolValue ?? false,
                    payload: json["payload"],
                    error: json["error"].flatMap(ErrorShape.init(json:))
                )
            )
        case "event":
            guard let event = json["event"]?.stringValue else {
                throw .missingField(frameType: type, field: "event")
            }
            return .event(
                EventFrame(
                    event: event,
                    payload: json["payload"],
                    seq: json["seq"]?.lenientIntValue,
                    stateVersion: StateVersion(json: json["stateVersion"])
                )
            )
        default:
            return .unknown(type: type, raw: json)
        }
    }

    public static func text(_ frame: RequestFrame) -> String { JSONSerializer.string(frame.json) }
    public static func text(_ frame: ResponseFrame) -> String { JSONSerializer.string(frame.json) }
    public static func text(_ frame: EventFrame) -> String { JSONSerializer.string(frame.json) }
}
