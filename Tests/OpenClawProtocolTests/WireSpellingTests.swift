import Testing

@testable import OpenClawProtocol

/// The typed constants spelled as gateways send them, each written out here once more by hand (from
/// `../shared/protocol`): the client decides by these constants and the test gateway now writes its
/// refusals from the same ones, so a misspelt constant would pass every end-to-end test on both sides.
@Suite("Wire spellings of the typed error details")
struct WireSpellingTests {
    @Test func detailCodes() {
        let codes: [(ErrorDetailCode, String)] = [
            (.authRequired, "AUTH_REQUIRED"), (.authUnauthorized, "AUTH_UNAUTHORIZED"),
            (.authTokenMissing, "AUTH_TOKEN_MISSING"), (.authTokenMismatch, "AUTH_TOKEN_MISMATCH"),
            (.authTokenNotConfigured, "AUTH_TOKEN_NOT_CONFIGURED"), (.authPasswordMissing, "AUTH_PASSWORD_MISSING"),
            (.authPasswordMismatch, "AUTH_PASSWORD_MISMATCH"),
            (.authPasswordNotConfigured, "AUTH_PASSWORD_NOT_CONFIGURED"),
            (.authBootstrapTokenInvalid, "AUTH_BOOTSTRAP_TOKEN_INVALID"),
            (.authDeviceTokenMismatch, "AUTH_DEVICE_TOKEN_MISMATCH"), (.authRateLimited, "AUTH_RATE_LIMITED"),
            (.authScopeMismatch, "AUTH_SCOPE_MISMATCH"),
            (.controlUIOriginNotAllowed, "CONTROL_UI_ORIGIN_NOT_ALLOWED"),
            (.deviceIdentityRequired, "DEVICE_IDENTITY_REQUIRED"), (.deviceAuthInvalid, "DEVICE_AUTH_INVALID"),
            (.deviceAuthDeviceIdMismatch, "DEVICE_AUTH_DEVICE_ID_MISMATCH"),
            (.deviceAuthSignatureExpired, "DEVICE_AUTH_SIGNATURE_EXPIRED"),
            (.deviceAuthNonceRequired, "DEVICE_AUTH_NONCE_REQUIRED"),
            (.deviceAuthNonceMismatch, "DEVICE_AUTH_NONCE_MISMATCH"),
            (.deviceAuthSignatureInvalid, "DEVICE_AUTH_SIGNATURE_INVALID"),
            (.deviceAuthPublicKeyInvalid, "DEVICE_AUTH_PUBLIC_KEY_INVALID"), (.pairingRequired, "PAIRING_REQUIRED"),
            (.pairingRejected, "PAIRING_REJECTED"), (.pairingExpired, "PAIRING_EXPIRED"),
            (.protocolMismatch, "PROTOCOL_MISMATCH"), (.missingScope, "MISSING_SCOPE"),
        ]
        for (code, spelling) in codes { #expect(code.rawValue == spelling) }
    }

    @Test func nextStepsPairingReasonsAndApprovalRefusals() {
        let steps: [(AuthNextStep, String)] = [
            (.retryWithDeviceToken, "retry_with_device_token"),
            (.updateAuthConfiguration, "update_auth_configuration"),
            (.updateAuthCredentials, "update_auth_credentials"), (.waitThenRetry, "wait_then_retry"),
            (.reviewAuthConfiguration, "review_auth_configuration"),
        ]
        for (step, spelling) in steps { #expect(step.rawValue == spelling) }
        let reasons: [(PairingReason, String)] = [
            (.notPaired, "not-paired"), (.metadataUpgrade, "metadata-upgrade"), (.roleUpgrade, "role-upgrade"),
            (.scopeUpgrade, "scope-upgrade"),
        ]
        for (reason, spelling) in reasons { #expect(reason.rawValue == spelling) }
        #expect(ApprovalRefusalReason.alreadyResolved.rawValue == "APPROVAL_ALREADY_RESOLVED")
        #expect(ApprovalRefusalReason.notFound.rawValue == "APPROVAL_NOT_FOUND")
    }
}
