/// The `error.details.recommendedNextStep` of an authentication refusal: what the gateway suggests the
/// client does next. Open, like ``ErrorDetailCode``: gateways may add steps, and an unknown one is
/// kept as it came.
public struct AuthNextStep: RawRepresentable, Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The shared token was wrong but this device holds a token of its own: try once more with it.
    public static let retryWithDeviceToken: AuthNextStep = "retry_with_device_token"
    /// Nothing is configured where something is required (a token or password missing).
    public static let updateAuthConfiguration: AuthNextStep = "update_auth_configuration"
    /// The credential given is wrong.
    public static let updateAuthCredentials: AuthNextStep = "update_auth_credentials"
    /// Too many failures: wait, then try again.
    public static let waitThenRetry: AuthNextStep = "wait_then_retry"
    public static let reviewAuthConfiguration: AuthNextStep = "review_auth_configuration"
}
