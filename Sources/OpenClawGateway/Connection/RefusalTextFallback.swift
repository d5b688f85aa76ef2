import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one place where a refusal's message text decides anything. Gateways say why they refuse in
/// `details.code` (and `details.missingScope`); these patterns are only for refusals without them, and
/// each one names the gateways that send it. Our own decisions never look at text otherwise.
///
/// Which upstream release first sent connect detail codes is not recorded: the oldest source the
/// protocol reference covers (upstream `8f8492d172`, 2026.4.12-beta.1, v3) already sends them. So "before
/// detail codes" below means releases older than that snapshot, and third-party gateways that copied
/// upstream's messages but not its details (the test gateway's `no-detail-codes` quirk speaks so).
enum RefusalTextFallback {
    /// `NOT_PAIRED "pairing required"` with no `details.code`: gateways before detail codes. (Since
    /// 2026.4.12-beta.1 upstream adds `details {code: PAIRING_REQUIRED, requestId, reason}`.)
    static func isPairingRequired(_ error: ErrorShape) -> Bool {
        error.code == .notPaired && error.message.lowercased().contains("pairing")
    }

    /// `INVALID_REQUEST "protocol mismatch"` with no `details.code`: every v3 release (details carry only
    /// `expectedProtocol`) and v4 builds before `PROTOCOL_MISMATCH` joined the detail codes (which build
    /// first sent it is unrecorded; upstream `connect-error-details.ts` @ `0711ee47` has it).
    static func isProtocolMismatch(_ error: ErrorShape) -> Bool {
        error.message.lowercased().contains("protocol mismatch")
    }

    /// `INVALID_REQUEST "unauthorized: …"` with no `details.code`: gateways before detail codes. (Since
    /// 2026.4.12-beta.1 upstream adds `details {code: AUTH_*, authReason, recommendedNextStep, …}`.)
    static func isAuthRefusal(_ error: ErrorShape) -> Bool {
        error.message.lowercased().hasPrefix("unauthorized")
    }

    /// The id after `requestId:` in a pairing refusal that has no `details.requestId`. v4 gateways end the
    /// pairing *close reason* with ` (requestId: <id>)` (v4 reference §2.4); this reads the same marker in
    /// the refusal's message, for gateways before detail codes that put the id only there. The docs name
    /// no release that does; without the marker the id is nil and `openclaw devices list` shows it.
    static func requestId(inReason reason: String) -> String? {
        guard let marker = reason.firstRange(of: "requestId:") else { return nil }
        let id = reason[marker.upperBound...].drop(while: { $0 == " " }).prefix(while: { $0 != ")" && $0 != " " })
        return id.isEmpty ? nil : String(id)
    }

    /// The scope in `"missing scope: <scope>"` (any case), for refusals whose details do not name it:
    /// v3's `INVALID_REQUEST` (all releases; v3 has no `FORBIDDEN`) and v4's `FORBIDDEN` or
    /// `INVALID_REQUEST` before the 2026-07-18 docs sync (upstream `5fe8d6a852`) added
    /// `details {code: MISSING_SCOPE, missingScope}`. Parsed like upstream's `readMissingScopeError`
    /// (`/missing scope:\s*([a-z0-9._-]+)/i`, for those two codes only; spaces are the whitespace skipped).
    static func missingScope(in error: ErrorShape) -> String? {
        guard error.code == .forbidden || error.code == .invalidRequest else { return nil }
        return scope(afterMarkerIn: error.message)
    }

    /// The scope name after `missing scope:`, byte by byte: no regex engine is needed for one marker.
    static func scope(afterMarkerIn message: String) -> String? {
        let marker = Array("missing scope:".utf8)
        let bytes = Array(message.utf8)
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) {
            var matches = true
            for offset in 0..<marker.count where asciiLower(bytes[start + offset]) != marker[offset] {
                matches = false
                break
            }
            guard matches else { continue }
            var index = start + marker.count
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            let nameStart = index
            while index < bytes.count, isScopeByte(bytes[index]) { index += 1 }
            return index > nameStart ? String(decoding: bytes[nameStart..<index], as: UTF8.self) : nil
        }
        return nil
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }

    private static func isScopeByte(_ byte: UInt8) -> Bool {
        let lowered = asciiLower(byte)
        return (97...122).contains(lowered) || (48...57).contains(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
