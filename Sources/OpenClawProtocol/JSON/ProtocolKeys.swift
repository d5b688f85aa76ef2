/// The member names gateway frames use most, for ``JSONCursor/parseKey()``: a name in the document that is
/// one of these is returned as the literal, not made anew (a streamed delta has eight of them, and
/// making them was a sixth of its parse).
enum ProtocolKeys {
    /// The longest name below, in bytes: a longer one is not looked up.
    static let longest = 10

    static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        /// Whether `bytes` spells `name`. The length is checked again so that a name listed under the
        /// wrong count below can only miss, never read past its end.
        func spells(_ name: StaticString) -> Bool {
            guard name.utf8CodeUnitCount == bytes.count else { return false }
            let start = name.utf8Start
            for offset in 0..<bytes.count where bytes[offset] != start[offset] { return false }
            return true
        }
        switch bytes.count {
        case 2:
            if spells("id") { return "id" }
            if spells("ok") { return "ok" }
        case 3:
            if spells("seq") { return "seq" }
        case 4:
            if spells("type") { return "type" }
            if spells("text") { return "text" }
            if spells("role") { return "role" }
        case 5:
            if spells("event") { return "event" }
            if spells("runId") { return "runId" }
            if spells("state") { return "state" }
            if spells("usage") { return "usage" }
            if spells("error") { return "error" }
        case 6:
            if spells("method") { return "method" }
            if spells("params") { return "params" }
        case 7:
            if spells("payload") { return "payload" }
            if spells("message") { return "message" }
            if spells("content") { return "content" }
        case 9:
            if spells("deltaText") { return "deltaText" }
            if spells("timestamp") { return "timestamp" }
        case 10:
            if spells("sessionKey") { return "sessionKey" }
            if spells("stopReason") { return "stopReason" }
        default: break
        }
        return nil
    }
}
