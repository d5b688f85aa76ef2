import Foundation
import OpenClawProtocol

/// The one place where a refusal's message text decides anything. Gateways say why they refuse in
/// `details.code`; these patterns are for those that do not: upstream releases from before the detail
/// codes, v3's protocol-mismatch refusal (which has none even in current v3), and other
/// implementations that copied the messages but not the details. Each pattern names who sends it.
/// Our own decisions never look at text otherwise.
enum RefusalTextFallback {
    /// `NOT_PAIRED "pairing required"` without `details.code` (releases before `PAIRING_REQUIRED`).
    static func isPairingRequired(_ error: ErrorShape) -> Bool {
        error.code == .notPaired && error.message.lowercased().contains("pairing")
    }

    /// v3's `INVALID_REQUEST "protocol mismatch"`, whose details carry only `expectedProtocol`.
    static func isProtocolMismatch(_ error: ErrorShape) -> Bool {
        error.message.lowercased().contains("protocol mismatch")
    }

    /// `INVALID_REQUEST "unauthorized: …"` without details (releases before the auth detail codes, and
    /// third-party gateways).
    static func isAuthRefusal(_ error: ErrorShape) -> Bool {
        error.message.lowercased().hasPrefix("unauthorized")
    }

    /// Newer gateways end the pairing close reason with `(requestId: <id>)`; older ones put the id
    /// nowhere else when the refusal's details are missing.
    static func requestId(inReason reason: String) -> String? {
        guard let marker = reason.range(of: "requestId:") else { return nil }
        let id = reason[marker.upperBound...].drop(while: { $0 == " " }).prefix(while: { $0 != ")" && $0 != " " })
        return id.isEmpty ? nil : String(id)
    }
}
