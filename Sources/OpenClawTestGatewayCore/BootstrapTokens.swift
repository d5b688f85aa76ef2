import OpenClawProtocol

/// A setup code's bootstrap token as the gateway keeps it: which roles and scopes it may hand over, and
/// until when. Single-use: verified, bound to the device that used it, then revoked (upstream
/// `src/infra/device-bootstrap.ts`).
struct BootstrapGrant: Sendable {
    var roles: [String]
    var scopes: [String]
    var expiresAtMs: Int
}

/// The outstanding bootstrap tokens of a test gateway.
struct BootstrapTokens: Sendable {
    private var grants: [String: BootstrapGrant] = [:]

    mutating func issue(_ grant: BootstrapGrant) -> String {
        let token = PairingRegistry.randomToken()
        grants[token] = grant
        return token
    }

    /// The grant for `token` if it is outstanding and unexpired; it is revoked either way, so a token
    /// is never accepted twice.
    mutating func redeem(_ token: String, nowMs: Int) -> BootstrapGrant? {
        guard let grant = grants.removeValue(forKey: token), grant.expiresAtMs > nowMs else { return nil }
        return grant
    }

    /// The refusal of an unknown, used or expired bootstrap token (`AUTH_BOOTSTRAP_TOKEN_INVALID`).
    static var invalid: ErrorShape {
        ErrorShape(
            code: .invalidRequest,
            message: "unauthorized: bootstrap token invalid or expired (scan a fresh setup code)",
            details: [
                "code": ErrorDetailCode.authBootstrapTokenInvalid.wire, "authReason": "bootstrap_token_invalid",
                "canRetryWithDeviceToken": false, "recommendedNextStep": AuthNextStep.updateAuthCredentials.wire,
            ]
        )
    }
}
