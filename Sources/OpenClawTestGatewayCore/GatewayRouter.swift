import OpenClawProtocol

/// The feature that answers a request, by method: the hub's method switch as data, so which methods
/// a gateway offers (its protocol generation and quirks) is decided in one place and testable alone.
struct GatewayRouter: Sendable {
    /// The hub's handlers, one per area of the protocol.
    enum Feature: Sendable, Equatable {
        /// Stateless answers from the catalog: `health`, `models.list`, `agent.identity`, `commands.list`.
        case catalog
        case chat
        case sessions
        case approvals
        case nodeRelay
        case pairing
    }

    let v4: Bool
    let quirks: GatewayQuirks

    init(v4: Bool, quirks: GatewayQuirks) {
        self.v4 = v4
        self.quirks = quirks
    }

    /// Session approvals ride on `sessions.messages.subscribe`, a v4 method a quirk can take away.
    var offersSessionApprovals: Bool { v4 && !quirks.contains(.noSessionApprovals) }

    var offersQuestions: Bool { v4 && !quirks.contains(.noQuestions) }

    /// The feature for `method`, or nil for a method this gateway does not offer (`unknown method`).
    func feature(for method: String) -> Feature? {
        switch method {
        case GatewayMethodName.health, GatewayMethodName.modelsList, GatewayMethodName.agentIdentity:
            return .catalog
        case GatewayMethodName.commandsList:
            return quirks.contains(.noCommandsList) ? nil : .catalog
        case GatewayMethodName.chatHistory, GatewayMethodName.chatMessageGet, GatewayMethodName.chatSend,
            GatewayMethodName.chatAbort:
            return .chat
        case GatewayMethodName.artifactsDownload:
            return v4 && !quirks.contains(.noArtifacts) ? .chat : nil
        case GatewayMethodName.sessionsList, GatewayMethodName.sessionsPatch, GatewayMethodName.sessionsReset:
            return .sessions
        case GatewayMethodName.sessionsSubscribe:
            return quirks.contains(.noSessionsChanged) ? nil : .sessions
        case SessionApprovalNames.subscribeMethod, SessionApprovalNames.unsubscribeMethod:
            return offersSessionApprovals ? .approvals : nil
        case GatewayMethodName.devicePairList, GatewayMethodName.devicePairApprove:
            return .pairing
        case ExecApprovalNames.resolveMethod, ExecApprovalNames.listMethod, ExecApprovalNames.getMethod,
            ApprovalNames.resolveMethod:
            return .approvals
        case ApprovalNames.getMethod, ApprovalNames.historyMethod:
            return v4 ? .approvals : nil
        case QuestionNames.listMethod, QuestionNames.getMethod, QuestionNames.resolveMethod:
            return offersQuestions ? .approvals : nil
        case _ where NodeRelayFeature.methods.contains(method):
            return .nodeRelay
        default:
            return nil
        }
    }
}
