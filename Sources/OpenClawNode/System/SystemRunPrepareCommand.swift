import OpenClawProtocol

/// `system.run.prepare`: the plan an approver is shown before `system.run` — what would run, where,
/// for whom — as `{cmdText, plan: {argv, cwd, rawCommand, agentId, sessionKey}}`. Runs nothing and
/// does not consult the policy (the later `system.run` does).
public struct SystemRunPrepareCommand: NodeCommand {
    public let name = "system.run.prepare"

    public init() {}

    public struct Payload: NodeCommandPayload {
        public var params: SystemRunParams

        public var json: JSONValue {
            let text = params.displayCommand
            return [
                "cmdText": .string(text),
                "plan": .object(dropping: [
                    ("argv", .strings(params.argv)), ("cwd", .string(params.cwd) ?? .null),
                    ("rawCommand", .string(text)), ("agentId", .string(params.agentId) ?? .null),
                    ("sessionKey", .string(params.sessionKey) ?? .null),
                ]),
            ]
        }
    }

    public func perform(
        _ params: SystemRunParams, context: NodeInvokeContext
    ) async throws(NodeInvokeError)
        -> Payload
    {
        Payload(params: params)
    }
}
