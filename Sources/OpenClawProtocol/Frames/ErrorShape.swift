/// A top-level gateway error code. An open set: gateways add codes (`FORBIDDEN` arrived in v4), so
/// this is a string with the known values as constants, never a closed enum.
public struct ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    public static let notLinked: ErrorCode = "NOT_LINKED"
    public static let notPaired: ErrorCode = "NOT_PAIRED"
    public static let agentTimeout: ErrorCode = "AGENT_TIMEOUT"
    public static let invalidRequest: ErrorCode = "INVALID_REQUEST"
    public static let approvalNotFound: ErrorCode = "APPROVAL_NOT_FOUND"
    public static let unavailable: ErrorCode = "UNAVAILABLE"
    /// v4: method-level authorisation failure (missing scope).
    public static let forbidden: ErrorCode = "FORBIDDEN"
    public static let agentResultNotFound: ErrorCode = "AGENT_RESULT_NOT_FOUND"
}

/// The `error.details.code` values of connect and authorisation failures. Open, like ``ErrorCode``.
public struct ErrorDetailCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    public static let authRequired: ErrorDetailCode = "AUTH_REQUIRED"
    public static let authUnauthorized: ErrorDetailCode = "AUTH_UNAUTHORIZED"
    public static let authTokenMissing: ErrorDetailCode = "AUTH_TOKEN_MISSING"
    public static let authTokenMismatch: ErrorDetailCode = "AUTH_TOKEN_MISMATCH"
    public static let authTokenNotConfigured: ErrorDetailCode = "AUTH_TOKEN_NOT_CONFIGURED"
    public static let authPasswordMissing: ErrorDetailCode = "AUTH_PASSWORD_MISSING"
    public static let authPasswordMismatch: ErrorDetailCode = "AUTH_PASSWORD_MISMATCH"
    public static let authPasswordNotConfigured: ErrorDetailCode = "AUTH_PASSWORD_NOT_CONFIGURED"
    public static let authBootstrapTokenInvalid: ErrorDetailCode = "AUTH_BOOTSTRAP_TOKEN_INVALID"
    public static let authDeviceTokenMismatch: ErrorDetailCode = "AUTH_DEVICE_TOKEN_MISMATCH"
    public static let authRateLimited: ErrorDetailCode = "AUTH_RATE_LIMITED"
    public static let authScopeMismatch: ErrorDetailCode = "AUTH_SCOPE_MISMATCH"
    public static let controlUIOriginNotAllowed: ErrorDetailCode = "CONTROL_UI_ORIGIN_NOT_ALLOWED"
    public static let deviceIdentityRequired: ErrorDetailCode = "DEVICE_IDENTITY_REQUIRED"
    public static let deviceAuthInvalid: ErrorDetailCode = "DEVICE_AUTH_INVALID"
    public static let deviceAuthDeviceIdMismatch: ErrorDetailCode = "DEVICE_AUTH_DEVICE_ID_MISMATCH"
    public static let deviceAuthSignatureExpired: ErrorDetailCode = "DEVICE_AUTH_SIGNATURE_EXPIRED"
    public static let deviceAuthNonceRequired: ErrorDetailCode = "DEVICE_AUTH_NONCE_REQUIRED"
    public static let deviceAuthNonceMismatch: ErrorDetailCode = "DEVICE_AUTH_NONCE_MISMATCH"
    public static let deviceAuthSignatureInvalid: ErrorDetailCode = "DEVICE_AUTH_SIGNATURE_INVALID"
    public static let deviceAuthPublicKeyInvalid: ErrorDetailCode = "DEVICE_AUTH_PUBLIC_KEY_INVALID"
    public static let pairingRequired: ErrorDetailCode = "PAIRING_REQUIRED"
    public static let pairingRejected: ErrorDetailCode = "PAIRING_REJECTED"
    public static let pairingExpired: ErrorDetailCode = "PAIRING_EXPIRED"
    public static let protocolMismatch: ErrorDetailCode = "PROTOCOL_MISMATCH"
    public static let missingScope: ErrorDetailCode = "MISSING_SCOPE"

    /// Whether this is one of the `AUTH_*` codes: the shared secret, device token or bootstrap token was
    /// refused, or sign-ins are rate-limited. A protocol family, not a list: v3 defines `AUTH_REQUIRED` …
    /// `AUTH_TAILSCALE_*`, v4 adds `AUTH_SCOPE_MISMATCH` and more, and a code added later is still an
    /// authentication refusal. (`AUTHENTICATED_PROFILE_UNAVAILABLE` has no underscore after `AUTH`, and
    /// is not one.)
    public var isAuth: Bool { rawValue.hasPrefix("AUTH_") }

    /// Whether this is one of the `DEVICE_AUTH_*` codes: the device proof (signature, nonce, key or
    /// clock) was rejected. A protocol family like ``isAuth``, so a code a newer gateway adds is still
    /// read as a device-proof problem.
    public var isDeviceAuth: Bool { rawValue.hasPrefix("DEVICE_AUTH_") }
}

/// The protocol's `ErrorShape`: `{code, message, details?, retryable?, retryAfterMs?}`.
public struct ErrorShape: Sendable, Hashable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    public var details: JSONValue?
    public var retryable: Bool?
    public var retryAfterMs: Int?

    public init(
        code: ErrorCode,
        message: String,
        details: JSONValue? = nil,
        retryable: Bool? = nil,
        retryAfterMs: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.retryable = retryable
        self.retryAfterMs = retryAfterMs
    }

    public init?(json: JSONValue) {
        guard json.objectValue != nil else { return nil }
        self.init(
            code: ErrorCode(rawValue: json["code"]?.stringValue ?? "UNKNOWN"),
            message: json["message"]?.stringValue ?? "",
            details: json["details"],
            retryable: json["retryable"]?.boolValue,
            retryAfterMs: json["retryAfterMs"]?.lenientIntValue
        )
    }

    public var json: JSONValue {
        .object(dropping: [
            ("code", .string(code.rawValue)), ("message", .string(message)), ("details", details),
            ("retryable", .bool(retryable)), ("retryAfterMs", .int(retryAfterMs)),
        ])
    }

    /// `details.code`, the precise reason of connect and authorisation failures.
    public var detailCode: ErrorDetailCode? {
        details?["code"]?.stringValue.map(ErrorDetailCode.init(rawValue:))
    }

    /// The scope a request lacked, as v4 gateways since the 2026-07-18 docs sync (upstream `5fe8d6a852`) name it:
    /// `details {code: MISSING_SCOPE, missingScope}`. Nil for the older `missing scope: X` refusals, which
    /// carry the scope only in their text; `OpenClawGateway` reads that text in its one fallback for
    /// gateways without detail codes, so no text is parsed here.
    public var missingScope: String? {
        guard detailCode == .missingScope else { return nil }
        return details?["missingScope"]?.stringValue
    }

    public var description: String { "\(code): \(message)" }
}
