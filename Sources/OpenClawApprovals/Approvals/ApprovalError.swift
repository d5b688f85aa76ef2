import OpenClawGateway
import OpenClawProtocol

/// Why a decision could not be made or delivered, each with a sentence and what to do next.
public enum ApprovalError: Error, Sendable, Equatable {
    /// A bare `allow`/`deny` with no request pending.
    case nothingPending
    /// No pending request has this id or prefix.
    case notFound(String)
    /// The prefix (or a bare decision) names more than one pending request.
    case ambiguous(String, candidates: [String])
    /// The gateway does not offer this decision for this request (for example `allow-always` when the
    /// host asks about every command).
    case notOffered(ExecApprovalDecision, allowed: [ExecApprovalDecision])
    /// It expired before the decision reached the gateway.
    case expired(String)
    /// Another approver decided first (with what, when known).
    case alreadyResolved(String, ApprovalOutcome?)
    /// This client may not decide: approvals are off, or the gateway did not grant `operator.approvals`.
    case unavailable(ApprovalAvailability)
    case notConnected
    /// The decision left and its answer was lost (the connection dropped, the request timed out): it
    /// may have reached the gateway. The client asks the gateway once it can, and reports the outcome.
    case inDoubt(String, ExecApprovalDecision)
    /// The gateway refused or the request failed otherwise.
    case gateway(GatewayError)

    public var message: String {
        switch self {
        case .nothingPending: return "No command is waiting for approval."
        case .notFound(let id): return "No pending approval matches \"\(id)\"."
        case .ambiguous(let id, let candidates):
            let shown = candidates.prefix(4).joined(separator: ", ")
            return id.isEmpty
                ? "\(candidates.count) commands are waiting: name one (\(shown))."
                : "\"\(id)\" matches \(candidates.count) pending approvals (\(shown))."
        case .notOffered(let decision, let allowed):
            return
                "\(decision.rawValue) is not offered for this command (only \(allowed.map(\.rawValue).joined(separator: ", ")))."
        case .expired(let id): return "Approval \(id) expired before a decision: the command did not run."
        case .alreadyResolved(let id, let outcome):
            switch outcome {
            case .decided(let decision, let by, _)?:
                return "Approval \(id) was already decided (\(decision.rawValue)\(by.map { " by \($0)" } ?? ""))."
            default: return "Approval \(id) was already decided by another approver."
            }
        case .unavailable(let availability): return availability.message
        case .notConnected: return "Not connected to the gateway: the decision was not sent."
        case .inDoubt(let id, let decision):
            return
                "No answer to \(decision.rawValue) for approval \(id): the decision may have reached the gateway; checking…"
        case .gateway(let error): return error.message
        }
    }

    public var nextStep: String? {
        switch self {
        case .nothingPending, .expired, .alreadyResolved, .inDoubt: return nil
        case .notFound: return "List the pending ones; an id may be shortened to a unique prefix."
        case .ambiguous: return "Type more of the id."
        case .notOffered: return "Choose one of the offered decisions."
        case .unavailable(let availability): return availability.nextStep
        case .notConnected: return "Decide again once reconnected, before it expires."
        case .gateway(let error): return error.nextStep
        }
    }
}

/// Whether this client receives and may resolve approval requests.
public enum ApprovalAvailability: Sendable, Equatable {
    /// Approvals are not enabled on this client (no cap, no scope asked for).
    case off
    /// Enabled, waiting for a connection.
    case waiting
    /// Connected as an approver: requests arrive and decisions are accepted.
    case active
    /// The gateway wants this device approved for `operator.approvals` first; chat works meanwhile.
    case scopeRefused(GatewayError.PairingRequest?)
    /// The gateway refused a decision for lack of `operator.approvals`.
    case missingScope

    public var message: String {
        switch self {
        case .off: return "Approvals are off on this client."
        case .waiting: return "Approvals: waiting for the gateway."
        case .active: return "Approvals on: commands that need approval appear here."
        case .scopeRefused:
            return "The gateway has not approved this device for exec approvals (operator.approvals)."
        case .missingScope: return "The gateway refused the decision: this connection lacks operator.approvals."
        }
    }

    public var nextStep: String? {
        switch self {
        case .off: return "Enable approvals (openclaw-chat chat --approvals, or the app's setting)."
        case .waiting, .active: return nil
        case .scopeRefused(let pairing?):
            return "Run `\(pairing.approveCommand)` on the gateway host, then reconnect."
        case .scopeRefused(nil):
            return "Approve this device for operator.approvals on the gateway (openclaw devices list), then reconnect."
        case .missingScope:
            return "Approve this device for operator.approvals on the gateway, then reconnect."
        }
    }
}
