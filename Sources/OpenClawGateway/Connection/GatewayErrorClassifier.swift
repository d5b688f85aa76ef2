import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns the gateway's error answers and close codes into ``GatewayError`` cases.
enum GatewayErrorClassifier {
    /// A refused `connect`.
    static func connectFailure(_ error: ErrorShape) -> GatewayError {
        let detail = error.detailCode
        if detail == .pairingRequired || (detail == nil && RefusalTextFallback.isPairingRequired(error)) {
            return .pairingRequired(
                GatewayError.PairingRequest(
                    requestId: error.details?["requestId"]?.stringValue
                        ?? RefusalTextFallback.requestId(inReason: error.message),
                    reason: error.details?["reason"]?.stringValue.map { PairingReason(rawValue: $0) },
                    deviceId: error.details?["deviceId"]?.stringValue
                )
            )
        }
        if detail == .protocolMismatch || (detail == nil && RefusalTextFallback.isProtocolMismatch(error)) {
            return .protocolMismatch(expected: error.details?["expectedProtocol"]?.intValue)
        }
        if let detail, detail.isDeviceAuth || detail == .deviceIdentityRequired {
            return .deviceIdentityRejected(code: detail, message: error.message)
        }
        if detail?.isAuth == true || (detail == nil && RefusalTextFallback.isAuthRefusal(error)) {
            return .authFailed(
                GatewayError.AuthFailure(
                    code: detail,
                    message: error.message,
                    recommendedNextStep: error.details?["recommendedNextStep"]?.stringValue.map {
                        AuthNextStep(rawValue: $0)
                    },
                    canRetryWithDeviceToken: error.details?["canRetryWithDeviceToken"]?.boolValue ?? false,
                    retryAfterMs: error.retryAfterMs ?? error.details?["retryAfterMs"]?.lenientIntValue
                )
            )
        }
        if error.code == .unavailable {
            return .gatewayUnavailable(retryAfterMs: error.retryAfterMs, message: error.message)
        }
        return .requestFailed(method: "connect", error: error)
    }

    /// A refused request after the handshake.
    static func requestFailure(method: String, error: ErrorShape) -> GatewayError {
        if let scope = error.missingScope ?? RefusalTextFallback.missingScope(in: error) {
            return .missingScope(scope: scope, method: method)
        }
        if error.code == .unavailable, error.retryable == true {
            return .gatewayUnavailable(retryAfterMs: error.retryAfterMs, message: error.message)
        }
        return .requestFailed(method: method, error: error)
    }

    /// A socket that closed during the handshake without an error response.
    static func handshakeClose(code: Int?, reason: String? = nil, pendingShutdown: ShutdownEvent?) -> GatewayError {
        switch code {
        case GatewayCloseCode.protocolError?: return .protocolMismatch(expected: nil)
        case GatewayCloseCode.tryAgainLater?: return .gatewayUnavailable(retryAfterMs: nil, message: "gateway starting")
        default:
            return .connectionLost(
                DisconnectReason.from(closeCode: code, reason: reason, pendingShutdown: pendingShutdown))
        }
    }
}
