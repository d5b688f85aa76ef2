import OpenClawGateway
import OpenClawProtocol

extension GatewayConnectionConfiguration {
    /// Makes the connection answer the agent's questions: asks for `operator.questions`, as upstream
    /// says a client should only when it handles them (`docs/gateway/clients.md`).
    ///
    /// `required: false` (the chat, the app) asks for it as an optional scope: a gateway that wants the
    /// device approved for it first still gives a connection without it, so chat works and
    /// `GatewaySession.scopeRefusal` says what to approve.
    public mutating func enableQuestions(required: Bool = false) {
        guard !scopes.contains(OperatorScope.questions), !optionalScopes.contains(OperatorScope.questions) else {
            return
        }
        if required { scopes.append(OperatorScope.questions) } else { optionalScopes.append(OperatorScope.questions) }
    }

    /// Whether ``enableQuestions(required:)`` was applied.
    public var questionsEnabled: Bool {
        scopes.contains(OperatorScope.questions) || optionalScopes.contains(OperatorScope.questions)
    }
}
