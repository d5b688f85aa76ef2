import OpenClawProtocol

/// `system.run.prepare`: the plan an approver is shown before `system.run` — what would run, where,
/// for whom — as `{cmdText, plan: {argv, cwd, commandText, rawCommand, agentId, sessionKey}}`.
///
/// Runs nothing. It refuses what `system.run` would refuse whatever the approver says (a `rawCommand`
/// that is not the argv, a refused variable, the node's own state), and remembers the plan: only an
/// approval that matches a remembered plan exactly lets `system.run` go beyond the allowlist.
public struct SystemRunPrepareCommand: NodeCommand {
    public let name = NodeCommandName.systemRunPrepare
    public let environment: SystemRunEnvironment

    public init(environment: SystemRunEnvironment) {
        self.environment = environment
    }

    public struct Payload: NodeCommandPayload {
        public var params: SystemRunParams

        public var json: JSONValue {
            let text = params.displayCommand
            return [
                "cmdText": .string(text),
                "plan": .object(dropping: [
                    ("argv", .strings(params.argv)), ("cwd", .string(params.cwd) ?? .null),
                    ("commandText", .string(text)), ("rawCommand", .string(text)),
                    ("agentId", .string(params.agentId) ?? .null), ("sessionKey", .string(params.sessionKey) ?? .null),
                ]),
            ]
        }
    }

    public func perform(
        _ params: SystemRunParams, context: NodeInvokeContext
    ) async throws(NodeInvokeError)
        -> Payload
    {
        if case .failure(let refusal) = environment.judge().prepare(params) { throw refusal.error }
        return Payload(params: params)
    }
}
