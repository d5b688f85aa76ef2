/// The `connect.challenge` event the gateway sends first on every socket: `{nonce, ts}`.
///
/// Only the nonce is needed (it is signed, and the gateway checks it): older and third-party gateways
/// send no `ts`, and upstream's own TypeScript client requires only the nonce. Without `ts` the proof
/// is signed with the local clock (see ``signingTimeMs(localNowMs:)``).
public struct ConnectChallenge: Sendable, Hashable {
    public var nonce: String
    /// Server time in epoch milliseconds, when the gateway sent a usable one.
    public var ts: Int?

    public init(nonce: String, ts: Int?) {
        self.nonce = nonce
        self.ts = ts
    }

    /// Nil when the challenge is unusable: see ``parse(_:)`` for why.
    public init?(json: JSONValue?) {
        guard case .success(let challenge) = Self.parse(json) else { return nil }
        self = challenge
    }

    /// The challenge, or why it cannot be answered. `ts` may be missing, `null`, a numeric string,
    /// ISO 8601 or epoch seconds; a `ts` that cannot be read is ignored rather than fatal.
    public static func parse(_ json: JSONValue?) -> Result<ConnectChallenge, ConnectChallengeProblem> {
        guard let json, json.objectValue != nil else { return .failure(.notAnObject) }
        guard let nonce = json["nonce"]?.nonEmptyStringValue else { return .failure(.missingNonce) }
        let ts = WireTimestamp.epochMilliseconds(json["ts"]).flatMap { $0 >= 0 ? $0 : nil }
        return .success(ConnectChallenge(nonce: nonce.trimmingASCIIWhitespace(), ts: ts))
    }

    /// The time to sign as `device.signedAt`: the gateway's `ts` when it sent one, so a wrong clock
    /// here cannot make the proof look stale; else the local clock.
    public func signingTimeMs(localNowMs: Int) -> Int { ts ?? localNowMs }

    public var json: JSONValue { .object(dropping: [("nonce", .string(nonce)), ("ts", .int(ts))]) }
}

/// Why a `connect.challenge` cannot be answered.
public enum ConnectChallengeProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload is missing or not an object.
    case notAnObject
    /// There is no non-blank `nonce` to sign.
    case missingNonce

    public var description: String {
        switch self {
        case .notAnObject: return "the challenge has no payload"
        case .missingNonce: return "the challenge has no nonce"
        }
    }
}

extension String {
    /// Trims spaces, tabs and line breaks at both ends (what the gateway's `.trim()` does for our inputs).
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
