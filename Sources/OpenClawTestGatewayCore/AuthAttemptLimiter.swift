import OpenClawProtocol

/// How the test gateway limits failed sign-ins (upstream `auth-rate-limit.ts`: 10 failures within a
/// minute lock the address out for 5 minutes). Upstream exempts loopback; this limiter does not, since
/// every test client is on loopback.
public struct AuthRateLimit: Sendable, Equatable {
    public var maxAttempts: Int
    public var windowMs: Int
    public var lockoutMs: Int
    /// Whether the refusal says how long the lockout still lasts (`retryAfterMs`). Upstream's does not;
    /// other gateways do.
    public var tellsRetryAfter: Bool

    public init(maxAttempts: Int = 10, windowMs: Int = 60_000, lockoutMs: Int = 300_000, tellsRetryAfter: Bool = false)
    {
        self.maxAttempts = maxAttempts
        self.windowMs = windowMs
        self.lockoutMs = lockoutMs
        self.tellsRetryAfter = tellsRetryAfter
    }
}

/// The failed sign-ins of one address within the window, and its lockout.
struct AuthAttemptLimiter {
    var limit: AuthRateLimit
    private var failures: [Int] = []
    private var lockedUntilMs: Int?

    init(limit: AuthRateLimit) { self.limit = limit }

    /// The refusal to send instead of checking the credential, while locked out.
    mutating func refusal(nowMs: Int) -> ErrorShape? {
        guard let until = lockedUntilMs else { return nil }
        guard nowMs < until else {
            lockedUntilMs = nil
            failures = []
            return nil
        }
        return ErrorShape(
            code: .invalidRequest,
            message: "unauthorized: too many failed authentication attempts (retry later)",
            details: [
                "code": ErrorDetailCode.authRateLimited.wire, "authReason": "rate_limited",
                "canRetryWithDeviceToken": false, "recommendedNextStep": AuthNextStep.waitThenRetry.wire,
            ],
            retryAfterMs: limit.tellsRetryAfter ? until - nowMs : nil
        )
    }

    mutating func recordFailure(nowMs: Int) {
        failures = failures.filter { $0 > nowMs - limit.windowMs } + [nowMs]
        if failures.count >= limit.maxAttempts { lockedUntilMs = nowMs + limit.lockoutMs }
    }

    mutating func reset() {
        failures = []
        lockedUntilMs = nil
    }
}
