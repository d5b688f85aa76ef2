/// One step of a connection diagnosis, in the order a connection goes through them.
public enum DiagnosisStepKind: String, Sendable, CaseIterable {
    case url = "URL"
    case dns = "DNS"
    case tcp = "TCP"
    case tls = "TLS"
    case webSocket = "WebSocket"
    case challenge = "Challenge"
    case protocolVersion = "Protocol"
    case auth = "Auth"
    case pairing = "Pairing"
    case scopes = "Scopes"
}

/// The outcome of one step: what was found, and for a failure what to do about it.
public struct DiagnosisStep: Sendable, Equatable {
    /// How a step ended.
    public enum Outcome: Sendable, Equatable {
        /// The check succeeded.
        case passed
        /// The check failed; the step says what to do about it.
        case failed
        /// Not applicable (TLS on `ws://`) or not reached because an earlier step failed.
        case skipped
    }

    public let kind: DiagnosisStepKind
    public let outcome: Outcome
    public let detail: String
    public let fix: String?
    /// The error behind a failed step, when there is one: what a caller decides on (the CLI's exit code),
    /// never the wording.
    public let error: GatewayError?

    public init(
        kind: DiagnosisStepKind, outcome: Outcome, detail: String, fix: String? = nil, error: GatewayError? = nil
    ) {
        self.kind = kind
        self.outcome = outcome
        self.detail = detail
        self.fix = fix
        self.error = error
    }
}
