import OpenClawProtocol

/// Everything that can go wrong talking to a gateway, each with a sentence a person understands and,
/// where there is one, what to do next.
///
/// Messages never contain a token, a password or a key: they are built from codes and from the
/// gateway's own error text, which carries none.
public enum GatewayError: Error, Sendable, Equatable {
    /// The address could not be read.
    case invalidURL(GatewayURLError)
    /// The socket could not be opened.
    case transport(TransportError)
    /// The socket opened but no `connect.challenge` came in time.
    case challengeTimeout(afterMs: Int)
    /// A `connect.challenge` came but cannot be answered (no nonce to sign).
    case invalidChallenge(ConnectChallengeProblem)
    /// The shared token or password, or the stored device token, was refused.
    case authFailed(AuthFailure)
    /// This device must be approved on the gateway host first.
    case pairingRequired(PairingRequest)
    /// The gateway speaks no protocol version we offer.
    case protocolMismatch(expected: Int?)
    /// The gateway accepted us but answered with a protocol version we do not speak.
    case unsupportedProtocol(Int)
    /// The device proof was rejected (`DEVICE_AUTH_*`): clock, nonce, signature or key problems.
    case deviceIdentityRejected(code: ErrorDetailCode?, message: String)
    /// A method needs a scope this connection was not granted.
    case missingScope(scope: String, method: String)
    /// The gateway is starting or restarting; retry after the given delay.
    case gatewayUnavailable(retryAfterMs: Int?, message: String)
    /// No response within the request's timeout.
    case timeout(method: String, afterMs: Int)
    /// The connection ended while a request was pending, or a request was made with none open.
    case connectionLost(DisconnectReason)
    /// A request was made while no connection was open; nothing is queued.
    case notConnected
    /// A request frame would exceed the gateway's `policy.maxPayload` (or the pre-handshake limit).
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The gateway answered with an error we have no more specific case for.
    case requestFailed(method: String, error: ErrorShape)
    /// The gateway's answer could not be understood.
    case invalidResponse(method: String, reason: String)
    /// The waiting task was cancelled, or a connect attempt was overtaken by `disconnect()` or a newer
    /// attempt.
    case cancelled
    /// The local identity or credential files could not be used.
    case localStorage(String)
    /// An attachment cannot be sent as it is (too large, a type the gateway drops, unreadable); found
    /// before the frame left.
    case attachment(AttachmentError)

    /// Details of an authentication refusal, from `error.details`.
    public struct AuthFailure: Sendable, Equatable {
        /// The gateway's `details.code` (`AUTH_TOKEN_MISMATCH`, `AUTH_RATE_LIMITED` …), when it sent one.
        public var code: ErrorDetailCode?
        /// The gateway's own error text.
        public var message: String
        /// What the gateway suggests doing next (`retry_with_device_token`, `wait_then_retry` …).
        public var recommendedNextStep: AuthNextStep?
        /// Whether the gateway would accept this device's saved token instead; the connection then
        /// tries once more with it by itself.
        public var canRetryWithDeviceToken: Bool
        /// How long the gateway asked us to wait before the next attempt, when it said (rate limiting).
        public var retryAfterMs: Int?

        public init(
            code: ErrorDetailCode?,
            message: String,
            recommendedNextStep: AuthNextStep? = nil,
            canRetryWithDeviceToken: Bool = false,
            retryAfterMs: Int? = nil
        ) {
            self.code = code
            self.message = message
            self.recommendedNextStep = recommendedNextStep
            self.canRetryWithDeviceToken = canRetryWithDeviceToken
            self.retryAfterMs = retryAfterMs
        }

        /// The gateway is refusing sign-ins from this address for a while, whatever the credential.
        public var isRateLimited: Bool { code == .authRateLimited || recommendedNextStep == .waitThenRetry }

        /// How long to wait before trying again when rate-limited: what the gateway said, or else
        /// upstream's lockout (5 minutes after 10 failures within a minute), since an attempt during the
        /// lockout is refused anyway.
        public var rateLimitWait: Duration? {
            guard isRateLimited else { return nil }
            return .milliseconds(max(1000, retryAfterMs ?? Self.defaultLockoutMs))
        }

        /// Upstream's default lockout after too many failed sign-ins (`auth-rate-limit.ts`).
        public static let defaultLockoutMs = 300_000
    }

    /// A pending pairing request.
    public struct PairingRequest: Sendable, Equatable {
        /// The request's id on the gateway, for `openclaw devices approve`; nil when the gateway did not
        /// say (`openclaw devices list` shows it).
        public var requestId: String?
        /// Why approval is needed: a new device, a role or scope upgrade, or changed platform details.
        public var reason: PairingReason?
        /// The device waiting for approval, when the gateway named it.
        public var deviceId: String?

        public init(requestId: String?, reason: PairingReason?, deviceId: String? = nil) {
            self.requestId = requestId
            self.reason = reason
            self.deviceId = deviceId
        }

        /// The exact command to run on the gateway host.
        public var approveCommand: String {
            "openclaw devices approve \(requestId ?? "<requestId from 'openclaw devices list'>")"
        }
    }
}

extension GatewayError: CustomStringConvertible {
    /// One sentence saying what happened.
    public var message: String {
        switch self {
        case .invalidURL(let error): return "The gateway URL is not valid: \(error)."
        case .transport(.tlsTrust(let failure)): return failure.message
        case .transport(let error): return "Could not reach the gateway: \(error)."
        case .challengeTimeout(let ms):
            return "The gateway did not start the handshake within \(ms / 1000) s; this may not be an OpenClaw gateway."
        case .invalidChallenge(let problem):
            return "The gateway started the handshake with a challenge this client cannot answer: \(problem)."
        case .authFailed(let failure):
            switch failure.code {
            case .authTokenMissing?: return "The gateway requires a token and none was given."
            case .authPasswordMissing?: return "The gateway requires a password and none was given."
            case .authPasswordMismatch?: return "The gateway refused the password."
            case .authDeviceTokenMismatch?: return "The gateway no longer accepts this device's saved token."
            case .authRateLimited?:
                return "Too many failed sign-in attempts from this address: the gateway refuses new ones for a while."
            case .authScopeMismatch?: return "This device's token does not cover the requested permissions."
            case .authBootstrapTokenInvalid?:
                return "The gateway refused the setup code: it was already used or has expired."
            case .authTokenNotConfigured?, .authPasswordNotConfigured?:
                return "The gateway has no token or password configured for this kind of sign-in."
            default: return "The gateway refused the token (\(failure.message))."
            }
        case .pairingRequired(let request):
            if request.reason == .metadataUpgrade {
                return "The gateway wants this device re-approved because its platform details changed."
            }
            return "This device is not yet approved on the gateway."
        case .protocolMismatch(let expected):
            let version = expected.map { " (it speaks protocol \($0))" } ?? ""
            return "The gateway speaks a protocol version this client does not support\(version); we speak 3 and 4."
        case .unsupportedProtocol(let version):
            return "The gateway answered with protocol \(version), which this client does not speak."
        case .deviceIdentityRejected(let code, let message):
            if code == .deviceAuthSignatureExpired {
                return "The gateway rejected the device signature as stale; this machine's clock may be wrong."
            }
            return "The gateway rejected this device's identity (\(message))."
        case .missingScope(let scope, let method):
            return "This connection lacks the permission '\(scope)' needed for \(method)."
        case .gatewayUnavailable(_, let message): return "The gateway is not ready yet (\(message))."
        case .timeout(let method, let ms): return "The gateway did not answer \(method) within \(ms / 1000) s."
        case .connectionLost(let reason): return "The connection to the gateway ended: \(reason)."
        case .notConnected: return "Not connected to a gateway."
        case .payloadTooLarge(let bytes, let limit):
            return "The message is too large to send (\(bytes) bytes; the gateway accepts \(limit))."
        case .requestFailed(let method, let error): return "The gateway refused \(method): \(error.message)."
        case .invalidResponse(let method, let reason):
            return "The gateway's answer to \(method) was unreadable: \(reason)."
        case .cancelled: return "The request was cancelled."
        case .localStorage(let reason): return "Local credentials could not be used: \(reason)."
        case .attachment(let error): return error.description
        }
    }

    /// What the person should do about it, when there is something to do.
    public var nextStep: String? {
        switch self {
        case .invalidURL: return "Use ws://host:port (or wss://host for TLS), e.g. ws://127.0.0.1:18789."
        case .transport(.hostNotFound): return "Check the host name, or use the gateway's IP address."
        case .transport(.connectionRefused):
            return "Check that the gateway is running and listening on that port (default 18789)."
        case .transport(.tlsTrust(let failure)): return failure.nextStep
        case .transport(.tlsFailed): return "Check that the gateway has TLS configured, or use ws:// instead of wss://."
        case .transport(.upgradeRejected(let status)):
            return status == 503
                ? "The gateway is busy or still starting; try again shortly."
                : "Check the URL path: it must point at the gateway's WebSocket endpoint."
        case .transport: return "Check the network and the gateway URL, then try again."
        case .challengeTimeout: return "Check that the URL points at an OpenClaw gateway, then try again."
        case .invalidChallenge:
            return "Check that the URL points at an OpenClaw-compatible gateway; if it is one, report its version."
        case .authFailed(let failure):
            if let wait = failure.rateLimitWait {
                let told =
                    failure.retryAfterMs != nil
                    ? " (the gateway said so)" : " (gateways lock an address out for up to 5 min)"
                return "Wait \(Self.roughly(wait))\(told), then try again; "
                    + "check the token first, as another wrong one counts as a failed attempt."
            }
            if failure.code == .authBootstrapTokenInvalid {
                return "Setup codes are single-use and short-lived: create a new one on the gateway host "
                    + "(`openclaw qr`) and log in with it."
            }
            if failure.code == .authDeviceTokenMismatch {
                return "Sign in again with the gateway token (openclaw-chat login)."
            }
            if failure.code == .authPasswordMismatch || failure.code == .authPasswordMissing {
                return "Check the gateway password (--password or OPENCLAW_GATEWAY_PASSWORD); on the gateway host, "
                    + "'openclaw config get gateway.auth.password' shows it."
            }
            // Also for `retry_with_device_token`: by the time the person reads this, the one retry with
            // this device's saved token has been made (or could not be), so the configured token is what
            // needs fixing.
            return "Check the gateway token (--token or OPENCLAW_GATEWAY_TOKEN); on the gateway host, "
                + "'openclaw config get gateway.auth.token' shows it."
        case .pairingRequired(let request):
            return "On the gateway host run: \(request.approveCommand) — then connect again."
        case .protocolMismatch, .unsupportedProtocol:
            return "Update this client, or run a gateway release that speaks protocol 3 or 4."
        case .deviceIdentityRejected(let code, _):
            if code == .deviceAuthSignatureExpired { return "Set this machine's clock correctly, then try again." }
            return "Try again; if it persists, remove the device identity file to create a new one and re-pair."
        case .missingScope: return "Approve the device for that permission on the gateway, then reconnect."
        case .gatewayUnavailable(let retryAfterMs, _):
            return "Try again in \(max(1, (retryAfterMs ?? 1000) / 1000)) s."
        case .timeout: return "Check the connection; the gateway may be overloaded."
        case .connectionLost(.authChanged): return "Sign in again with the gateway's new token."
        case .connectionLost: return "Reconnect; nothing you sent is lost."
        case .notConnected: return "Connect first."
        case .payloadTooLarge: return "Send a shorter message or a smaller attachment."
        case .localStorage: return "Check that the state directory is writable (--state-dir)."
        case .attachment: return "Remove the attachment or pick a smaller file."
        case .requestFailed, .invalidResponse, .cancelled: return nil
        }
    }

    /// Whether trying again unchanged can succeed. False means the person has to act first: automatic
    /// reconnecting must pause (a pairing request in particular must not be replaced by retries).
    public var isRetryable: Bool {
        switch self {
        case .transport(.tlsTrust): return false
        case .transport, .challengeTimeout, .gatewayUnavailable, .timeout, .connectionLost, .notConnected:
            return true
        case .authFailed(let failure): return failure.isRateLimited
        case .invalidURL, .invalidChallenge, .pairingRequired, .protocolMismatch, .unsupportedProtocol,
            .deviceIdentityRejected, .missingScope, .payloadTooLarge, .requestFailed, .invalidResponse, .cancelled,
            .localStorage, .attachment:
            return false
        }
    }

    public var description: String {
        guard let nextStep else { return message }
        return "\(message) \(nextStep)"
    }
}

extension GatewayError {
    /// A wait as a person says it: "45 s", "5 min".
    static func roughly(_ wait: Duration) -> String {
        let seconds = Int(wait.components.seconds)
        if seconds < 90 { return "\(max(1, seconds)) s" }
        return "\((seconds + 30) / 60) min"
    }
}
