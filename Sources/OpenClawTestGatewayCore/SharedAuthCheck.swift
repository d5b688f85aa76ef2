import OpenClawProtocol

/// How a socket proved itself at connect. Sockets admitted by the shared secret are the ones a
/// shared-auth rotation closes with 4001.
enum AuthMethod: Sendable, Equatable {
    case none
    case shared
    case deviceToken
    /// A setup code's bootstrap token (single-use); the device token takes over afterwards.
    case bootstrapToken
}

/// The shared-secret and device-token decision of `connect`.
struct SharedAuthCheck {
    struct Failure: Error, Sendable {
        var detailCode: String
        var authReason: String
        var message: String
        var canRetryWithDeviceToken: Bool
        var recommendedNextStep: String

        var error: ErrorShape {
            ErrorShape(
                code: .invalidRequest,
                message: message,
                details: [
                    "code": .string(detailCode), "authReason": .string(authReason),
                    "canRetryWithDeviceToken": .bool(canRetryWithDeviceToken),
                    "recommendedNextStep": .string(recommendedNextStep),
                ]
            )
        }
    }

    var configured: TestGatewayAuth
    /// `connect.auth`, possibly absent.
    var auth: JSONValue?
    var hasDevice: Bool
    var isCliClient: Bool
    /// Verifies a device token for this connect (nil when there is no device).
    var verifyDeviceToken: (String) -> Bool

    func decide() -> Result<AuthMethod, Failure> {
        let token = auth?["token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let deviceToken = auth?["deviceToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let password = auth?["password"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }

        let sharedReason: String
        switch configured {
        case .none:
            return .success(.none)
        case .token(let expected):
            if token == expected { return .success(.shared) }
            sharedReason = token == nil ? "token_missing" : "token_mismatch"
        case .password(let expected):
            if password == expected { return .success(.shared) }
            sharedReason = password == nil ? "password_missing" : "password_mismatch"
        }
        if hasDevice, let candidate = deviceToken ?? token, verifyDeviceToken(candidate) {
            return .success(.deviceToken)
        }
        if hasDevice, deviceToken != nil {
            return .failure(failure(reason: "device_token_mismatch", canRetry: false))
        }
        let missingButHasDeviceToken = sharedReason == "token_missing" && deviceToken != nil
        let reason = missingButHasDeviceToken ? "token_mismatch" : sharedReason
        let canRetry = reason == "token_mismatch" && hasDevice && token != nil && deviceToken == nil
        return .failure(failure(reason: reason, canRetry: canRetry))
    }

    private func failure(reason: String, canRetry: Bool) -> Failure {
        let tokenHint =
            isCliClient ? "set gateway.remote.token to match gateway.auth.token" : "provide gateway auth token"
        let passwordHint =
            isCliClient ? "set gateway.remote.password to match gateway.auth.password" : "provide gateway auth password"
        switch reason {
        case "token_missing":
            return Failure(
                detailCode: "AUTH_TOKEN_MISSING", authReason: reason,
                message: "unauthorized: gateway token missing (\(tokenHint))",
                canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_configuration")
        case "token_mismatch":
            return Failure(
                detailCode: "AUTH_TOKEN_MISMATCH", authReason: reason,
                message: "unauthorized: gateway token mismatch (\(tokenHint))",
                canRetryWithDeviceToken: canRetry,
                recommendedNextStep: canRetry ? "retry_with_device_token" : "update_auth_credentials")
        case "password_missing":
            return Failure(
                detailCode: "AUTH_PASSWORD_MISSING", authReason: reason,
                message: "unauthorized: gateway password missing (\(passwordHint))",
                canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_configuration")
        case "password_mismatch":
            return Failure(
                detailCode: "AUTH_PASSWORD_MISMATCH", authReason: reason,
                message: "unauthorized: gateway password mismatch (\(passwordHint))",
                canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_credentials")
        default:
            return Failure(
                detailCode: "AUTH_DEVICE_TOKEN_MISMATCH", authReason: "device_token_mismatch",
                message: "unauthorized: device token mismatch (rotate/reissue device token)",
                canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_credentials")
        }
    }
}
