/// The `connect.challenge` event the gateway sends first on every socket: `{nonce, ts}`.
public struct ConnectChallenge: Sendable, Hashable {
    public var nonce: String
    /// Server time in epoch milliseconds; signed as `device.signedAt` so client clock skew cannot matter.
    public var ts: Int

    public init(nonce: String, ts: Int) {
        self.nonce = nonce
        self.ts = ts
    }

    /// Nil when the nonce is blank or `ts` is not a non-negative integer: such a challenge is invalid.
    public init?(json: JSONValue?) {
        guard let json, let nonce = json["nonce"]?.nonEmptyStringValue,
            let ts = json["ts"]?.intValue, ts >= 0
        else { return nil }
        self.init(nonce: nonce.trimmingASCIIWhitespace(), ts: ts)
    }

    public var json: JSONValue { ["nonce": .string(nonce), "ts": .int(ts)] }
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
