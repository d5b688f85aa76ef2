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
    public var payload: JSONValue? {
        get { storedPayload.value }
        set { storedPayload = .value(newValue) }
    }
    /// Per-connection frame sequence number; absent on targeted events and on `connect.challenge`.
    public var seq: Int?
    public var stateVersion: StateVersion?
    /// Read off the wire, an object payload stays its members until ``payload`` is asked for.
    var storedPayload: EventPayload

    public init(event: String, payload: JSONValue? = nil, seq: Int? = nil, stateVersion: StateVersion? = nil) {
        self.init(event: event, storedPayload: .value(payload), seq: seq, stateVersion: stateVersion)
    }

    init(event: String, storedPayload: EventPayload, seq: Int?, stateVersion: StateVersion?) {
        self.event = event
        self.storedPayload = storedPayload
        self.seq = seq
        self.stateVersion = stateVersion
    }

    /// Equal when they read the same, however the payload is held.
    public static func == (lhs: EventFrame, rhs: EventFrame) -> Bool {
        lhs.event == rhs.event && lhs.seq == rhs.seq && lhs.stateVersion == rhs.stateVersion
            && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(event)
        hasher.combine(payload)
        hasher.combine(seq)
        hasher.combine(stateVersion)
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
        try Self.frame(from: Result { () throws(JSONParseError) in try parser.parseEnvelope(bytes) })
    }

    /// Text frames, the form gateways send: parsed in place from the string's UTF-8.
    public func decode(_ text: String) throws(FrameDecodingError) -> GatewayFrame {
        try Self.frame(from: Result { () throws(JSONParseError) in try parser.parseEnvelope(text) })
    }

    private static func frame(
        from parsed: Result<[JSONParser.EnvelopeMember]?, JSONParseError>
    ) throws(FrameDecodingError) -> GatewayFrame {
        switch parsed {
        case .success(let members?): return try frame(members: members)
        case .success(nil): throw .notAFrame
        case .failure(let error): throw .malformedJSON(error)
        }
    }

    public static func frame(from json: JSONValue) throws(FrameDecodingError) -> GatewayFrame {
        guard case .object(let members) = json else { throw .notAFrame }
        return try frame(members: members.map { JSONParser.EnvelopeMember(key: $0.key, value: .value($0.value)) })
    }

    /// The envelope's fields in one pass over its members, read as `JSONValue`'s subscript reads them:
    /// an explicit `null` is absent, and of duplicate keys the last one counts.
    private static func frame(
        members: [JSONParser.EnvelopeMember]
    ) throws(FrameDecodingError) -> GatewayFrame {
        var envelope = Envelope()
        for member in members {
            let (key, value) = (member.key, member.value)
            // The name's length first, as `ChatEvent` does: most comparisons then end at an integer.
            switch (key.utf8.count, key) {
            case (4, "type"): envelope.type = value.present
            case (2, "id"): envelope.id = value.present
            case (6, "method"): envelope.method = value.present
            case (6, "params"): envelope.params = value.present
            case (2, "ok"): envelope.ok = value.present
            case (7, "payload"): envelope.payload = EventPayload(value)
            case (5, "error"): envelope.error = value.present
            case (5, "event"): envelope.event = value.present
            case (3, "seq"): envelope.seq = value.present
            case (12, "stateVersion"): envelope.stateVersion = value.present
            default: break
            }
        }
        guard let type = envelope.type?.stringValue else { throw .notAFrame }
        switch type {
        case "req":
            guard let id = envelope.id?.stringValue else { throw .missingField(frameType: type, field: "id") }
            guard let method = envelope.method?.stringValue else {
                throw .missingField(frameType: type, field: "method")
            }
            return .request(RequestFrame(id: id, method: method, params: envelope.params))
        case "res":
            guard let id = envelope.id?.stringValue else { throw .missingField(frameType: type, field: "id") }
            return .response(
                ResponseFrame(
                    id: id,
                    ok: envelope.ok?.boolValue ?? false,
                    payload: envelope.payload?.value,
                    error: envelope.error.flatMap(ErrorShape.init(json:))
                )
            )
        case "event":
            guard let event = envelope.event?.stringValue else {
                throw .missingField(frameType: type, field: "event")
            }
            return .event(
                EventFrame(
                    event: event,
                    storedPayload: envelope.payload ?? .value(nil),
                    seq: envelope.seq?.lenientIntValue,
                    stateVersion: StateVersion(json: envelope.stateVersion)
                )
            )
        default:
            let object = members.map { ($0.key, $0.value.present ?? .null) }
            return .unknown(type: type, raw: .object(Dictionary(object, uniquingKeysWith: { _, last in last })))
        }
    }

    /// The members a frame's envelope may have.
    private struct Envelope {
        var type: JSONValue?
        var id: JSONValue?
        var method: JSONValue?
        var params: JSONValue?
        var ok: JSONValue?
        var payload: EventPayload?
        var error: JSONValue?
        var event: JSONValue?
        var seq: JSONValue?
        var stateVersion: JSONValue?
    }

    public static func text(_ frame: RequestFrame) -> String { JSONSerializer.string(frame.json) }
    public static func text(_ frame: ResponseFrame) -> String { JSONSerializer.string(frame.json) }
    public static func text(_ frame: EventFrame) -> String { JSONSerializer.string(frame.json) }
}
