import OpenClawGateway
import OpenClawProtocol

/// What the gateway says about a decision whose answer was lost: asked once the connection is back,
/// so a decision that may have landed is reported as it ended, never offered again as if it had not.
///
/// Upstream's `exec.approval.get` answers only for a pending request (`APPROVAL_NOT_FOUND` otherwise),
/// and `exec.approval.resolve` answers a repeat of the recorded decision `ok` and a different one
/// `APPROVAL_ALREADY_RESOLVED` while it retains the decided request (docs/PROTOCOL-NOTES.md). So: still
/// pending means the decision did not land; otherwise the same decision, sent again, says whether it
/// was ours — a request no longer pending cannot be decided again, so the repeat changes nothing.
enum DecisionCheck: Sendable, Equatable {
    /// Still waiting: the decision did not reach the gateway.
    case stillPending
    /// The gateway recorded this decision.
    case recorded
    /// Another approver decided it differently first.
    case decidedOtherwise
    /// Not pending, and the gateway no longer says how it ended (decided or expired).
    case gone
    /// No answer again (another drop, a timeout): ask at the next connection.
    case unanswered

    static func ask(
        _ id: String, sent decision: ExecApprovalDecision, connection: GatewayConnection
    ) async -> DecisionCheck {
        switch await isPending(id, connection: connection) {
        case true?: return .stillPending
        case nil: return .unanswered
        case false?: break
        }
        do {
            _ = try await connection.call(ExecApprovalResolveParams(id: id, decision: decision))
            return .recorded
        } catch {
            guard case .requestFailed(_, let shape) = error else { return .unanswered }
            if shape.approvalRefusalReason == .alreadyResolved { return .decidedOtherwise }
            if shape.approvalRefusalReason == .notFound || shape.code == .approvalNotFound { return .gone }
            return .unanswered
        }
    }

    /// `exec.approval.get`, or the list on a gateway without it; nil when neither answers.
    private static func isPending(_ id: String, connection: GatewayConnection) async -> Bool? {
        do {
            _ = try await connection.call(ExecApprovalGetParams(id: id))
            return true
        } catch {
            guard case .requestFailed(_, let shape) = error else { return nil }
            if shape.approvalRefusalReason == .notFound || shape.code == .approvalNotFound { return false }
        }
        guard let items = try? await connection.call(ExecApprovalListParams()) else { return nil }
        return items.contains { $0["id"]?.stringValue == id }
    }
}
