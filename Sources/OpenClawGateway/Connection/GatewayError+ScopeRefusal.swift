import OpenClawProtocol

extension GatewayError {
    /// Whether this refusal of `connect` only asks for more scopes than the device holds: a new
    /// approval (`PAIRING_REQUIRED` with reason `scope-upgrade`) or a device token that does not cover
    /// them (v4 `AUTH_SCOPE_MISMATCH`). Nil for every other error.
    var scopeUpgrade: ScopeUpgrade? {
        switch self {
        case .pairingRequired(let request) where request.reason == .scopeUpgrade:
            return ScopeUpgrade(pairing: request)
        case .authFailed(let failure) where failure.code == .authScopeMismatch:
            return ScopeUpgrade(pairing: nil)
        default:
            return nil
        }
    }

    /// A scope-upgrade refusal, with its pairing request when the gateway made one.
    struct ScopeUpgrade {
        var pairing: PairingRequest?
    }
}
