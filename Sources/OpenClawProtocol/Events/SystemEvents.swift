/// The `tick` event payload, `{ts}`: the gateway's heartbeat.
public struct TickEvent: Sendable, Hashable {
    public var ts: Int

    public init(ts: Int) { self.ts = ts }

    public init?(json: JSONValue?) {
        guard let ts = WireTimestamp.epochMilliseconds(json?["ts"]) else { return nil }
        self.init(ts: ts)
    }

    public var json: JSONValue { ["ts": .int(ts)] }
}

/// The `shutdown` event payload, `{reason, restartExpectedMs?}`, sent before the gateway closes
/// every socket with 1012.
public struct ShutdownEvent: Sendable, Hashable {
    public var reason: String
    /// How long the gateway expects to be away; a client waits at least this long before reconnecting.
    public var restartExpectedMs: Int?

    public init(reason: String, restartExpectedMs: Int? = nil) {
        self.reason = reason
        self.restartExpectedMs = restartExpectedMs
    }

    public init(json: JSONValue?) {
        self.init(
            reason: json?["reason"]?.stringValue ?? "gateway stopping",
            restartExpectedMs: json?["restartExpectedMs"]?.lenientIntValue
        )
    }

    public var json: JSONValue {
        .object(dropping: [("reason", .string(reason)), ("restartExpectedMs", .int(restartExpectedMs))])
    }
}
