import OpenClawProtocol

/// Everything that can go wrong talking to a gateway, each with a sentence a person understands and,
/// where there is one, what to do next.
///
/// Messages never contain a token, a password or a key: they are built from codes and from the
/// gateway's own error text, which carries none.
public enum GatewayError: Error, Sendable, Equatable {
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
    case notConnected
    /// A request frame would exceed the gateway's `policy.maxPayload` (or the pre-handshake limit).
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The gateway answered with an error we have no more specific case for.
    case requestFailed(method: String, error: ErrorShape)
    /// The gateway's answer could not be understood.
    case invalidResponse(method: String, reason: String)
    case cancelled
    /// The local identity or credential files could not be used.
    case localStorage(String)

    /// Details of an authentication refusal, from `error.details`.
    public struct AuthFailure: Sendable, Equatable {
        public var code: ErrorDetailCode?
        public var message: String
        /// `retry_with_device_token`, `update_auth_configuration`, `update_auth_credentials`,
        /// `wait_then_retry` or `review_auth_configuration`.
        public var recommendedNextStep: String?
        public var canRetryWithDeviceToken: Bool

        public init(
            code: ErrorDetailCode?,
            message: String,
            recommendedNextStep: String? = nil,
            canRetryWithDeviceToken: Bool = false
        ) {
            self.code = code
            self.message = message
            self.recommendedNextStep = recommendedNextStep
            self.canRetryWithDeviceToken = canRetryWithDeviceToken
        }
    }

    /// A pending pairing request.
    public struct PairingRequest: Sendable, Equatable {
        public var requestId: String?
        /// `not-paired`, `metadata-upgrade`, `role-upgrade`, `scope-upgrade`.
        public var reason: String?
        public var deviceId: String?

        public init(requestId: String?, reason: String?, deviceId: String? = nil) {
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
                return "Too many failed sign-in attempts; the gateway is rate-limiting this address."
            case .authScopeMismatch?: return "This device's token does not cover the requested permissions."
            case .authBootstrapTokenInvalid?:
                return "The gateway refused the setup code: it was already used or has expired."
            case .authTokenNotConfigured?, .authPasswordNotConfigured?:
                return "The gateway has no token or password configured for this kind of sign-in."
            default: return "The gateway refused the token (\(failure.message))."
            }
        case .pairingRequired(let request):
            if request.reason == "metadata-upgrade" {
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
            switch failure.recommendedNextStep {
            case "wait_then_retry"?: return "Wait a minute, then try again."
            case "retry_with_device_token"?: return "Try again; this device's saved token will be used."
            default:
                if failure.code == .authBootstrapTokenInvalid {
                    return "Setup codes are single-use and short-lived: create a new one on the gateway host "
                        + "(`openclaw qr`) and log in with it."
                }
                if failure.code == .authDeviceTokenMismatch {
                    return "Sign in again with the gateway token (openclaw-chat login)."
                }
                return "Check the gateway token (--token or OPENCLAW_GATEWAY_TOKEN); on the gateway host, "
                    + "'openclaw config get gateway.auth.token' shows it."
            }
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
        case .authFailed(let failure): return failure.recommendedNextStep == "wait_then_retry"
        case .invalidURL, .invalidChallenge, .pairingRequired, .protocolMismatch, .unsupportedProtocol,
            .deviceIdentityRejected, .missingScope, .payloadTooLarge, .requestFailed, .invalidResponse, .cancelled,
            .localStorage:
            return false
        }
    }

    public var description: String {
        guard let nextStep else { return message }
        return "\(message) \(nextStep)"
    }
}
