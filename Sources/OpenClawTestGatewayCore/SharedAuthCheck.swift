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
    /// The `details.authReason` values of this check (upstream `auth-messages.ts`); the bootstrap and
    /// rate-limit refusals have their own.
    enum AuthReason: String, Sendable {
        case tokenMissing = "token_missing"
        case tokenMismatch = "token_mismatch"
        case passwordMissing = "password_missing"
        case passwordMismatch = "password_mismatch"
        case deviceTokenMismatch = "device_token_mismatch"
    }

    struct Failure: Error, Sendable {
        var detailCode: ErrorDetailCode
        var authReason: AuthReason
        var message: String
        var canRetryWithDeviceToken: Bool
        var recommendedNextStep: AuthNextStep

        var error: ErrorShape {
            ErrorShape(
                code: .invalidRequest,
                message: message,
                details: [
                    "code": detailCode.wire, "authReason": authReason.wire,
                    "canRetryWithDeviceToken": .bool(canRetryWithDeviceToken),
                    "recommendedNextStep": recommendedNextStep.wire,
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

        let sharedReason: AuthReason
        switch configured {
        case .none:
            return .success(.none)
        case .token(let expected):
            if token == expected { return .success(.shared) }
            sharedReason = token == nil ? .tokenMissing : .tokenMismatch
        case .password(let expected):
            if password == expected { return .success(.shared) }
            sharedReason = password == nil ? .passwordMissing : .passwordMismatch
        }
        if hasDevice, let candidate = deviceToken ?? token, verifyDeviceToken(candidate) {
            return .success(.deviceToken)
        }
        if hasDevice, deviceToken != nil {
            return .failure(failure(reason: .deviceTokenMismatch, canRetry: false))
        }
        let missingButHasDeviceToken = sharedReason == .tokenMissing && deviceToken != nil
        let reason = missingButHasDeviceToken ? .tokenMismatch : sharedReason
        let canRetry = reason == .tokenMismatch && hasDevice && token != nil && deviceToken == nil
        return .failure(failure(reason: reason, canRetry: canRetry))
    }

    private func failure(reason: AuthReason, canRetry: Bool) -> Failure {
        let tokenHint =
            isCliClient ? "set gateway.remote.token to match gateway.auth.token" : "provide gateway auth token"
        let passwordHint =
            isCliClient ? "set gateway.remote.password to match gateway.auth.password" : "provide gateway auth password"
        switch reason {
        case .tokenMissing:
            return Failure(
                detailCode: .authTokenMissing, authReason: reason,
                message: "unauthorized: gateway token missing (\(tokenHint))",
                canRetryWithDeviceToken: false, recommendedNextStep: .updateAuthConfiguration)
        case .tokenMismatch:
            return Failure(
                detailCode: .authTokenMismatch, authReason: reason,
                message: "unauthorized: gateway token mismatch (\(tokenHint))",
                canRetryWithDeviceToken: canRetry,
                recommendedNextStep: canRetry ? .retryWithDeviceToken : .updateAuthCredentials)
        case .passwordMissing:
            return Failure(
                detailCode: .authPasswordMissing, authReason: reason,
                message: "unauthorized: gateway password missing (\(passwordHint))",
                canRetryWithDeviceToken: false, recommendedNextStep: .updateAuthConfiguration)
        case .passwordMismatch:
            return Failure(
                detailCode: .authPasswordMismatch, authReason: reason,
                message: "unauthorized: gateway password mismatch (\(passwordHint))",
                canRetryWithDeviceToken: false, recommendedNextStep: .updateAuthCredentials)
        case .deviceTokenMismatch:
            return Failure(
                detailCode: .authDeviceTokenMismatch, authReason: reason,
                message: "unauthorized: device token mismatch (rotate/reissue device token)",
                canRetryWithDeviceToken: false, recommendedNextStep: .updateAuthCredentials)
        }
    }
}
