import OpenClawGateway
import OpenClawProtocol

/// What `approval.get` says about one approval.
public enum ApprovalRecordLookup: Sendable, Equatable {
    /// The gateway's recorded state, pending or terminal.
    case recorded(ApprovalSnapshot)
    /// It does not know the id (never existed, or retained no longer).
    case notFound
    /// The gateway has no `approval.get` (before the unified approval family): nothing to ask.
    case unsupported
}

/// The gateway's record of approvals (summer 2026's unified family): one approval's recorded state
/// (`approval.get`) and the history of terminal ones (`approval.history`), each used only when
/// `hello-ok.features.methods` lists it, so an older gateway is never sent a method it does not know.
extension ApprovalsClient {
    /// `approval.get {id}` with the exact full id (upstream accepts no prefix).
    public func recordedState(_ id: String) async throws(GatewayError) -> ApprovalRecordLookup {
        guard await offers(ApprovalNames.getMethod) else { return .unsupported }
        do {
            return .recorded(try await connection.call(ApprovalGetParams(id: id)))
        } catch {
            if case .requestFailed(_, let shape) = error,
                shape.approvalRefusalReason == .notFound || shape.code == .approvalNotFound
            {
                return .notFound
            }
            throw error
        }
    }

    /// One page of `approval.history`, newest first; nil when the gateway does not offer it.
    public func history(limit: Int = 20, cursor: String? = nil) async throws(GatewayError) -> ApprovalHistoryPage? {
        guard await offers(ApprovalNames.historyMethod) else { return nil }
        return try await connection.call(ApprovalHistoryParams(cursor: cursor, limit: limit))
    }

    private func offers(_ method: String) async -> Bool {
        await connection.session?.hello.features.methods.contains(method) ?? false
    }
}
