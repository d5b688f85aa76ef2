import OpenClawProtocol

/// `commands.list`, `sessions.subscribe` and the `sessions.changed` events a subscribed socket gets
/// around each run, as upstream sends them (`docs/gateway/protocol.md` "Operator helper methods";
/// `docs/gateway/clients.md` "Subscribe instead of polling usage").
extension GatewayHub {
    /// `CommandsListParams` (upstream `packages/gateway-protocol/src/schema/commands.ts`).
    static let commandsListParams = ObjectShape([
        "sessionKey": .string(minLength: 1), "agentId": .string(minLength: 1), "provider": .string(minLength: 1),
        "scope": .oneOf(["text", "native", "both"]), "includeArgs": .boolean,
    ])

    func handleCommandsList(_ request: RequestFrame, from id: Int) {
        guard validParams(request, shape: Self.commandsListParams, from: id) != nil else { return }
        let commands: [JSONValue] = GatewayCatalog.commands.map { command in
            [
                "name": .string(command.name), "textAliases": [.string("/" + command.name)],
                "description": .string(command.description), "source": "native", "scope": "both",
                "acceptsArgs": .bool(command.acceptsArgs),
            ]
        }
        respond(to: id, requestId: request.id, payload: ["commands": .array(commands)])
    }

    func handleSessionsSubscribe(_ request: RequestFrame, from id: Int) {
        guard validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
        connections[id]?.sessionsSubscribed = true
        respond(to: id, requestId: request.id, payload: ["subscribed": true])
    }

    /// A run's lifecycle reached `phase` (`start`, `end`, `error`): the session's row, with its
    /// usage, goes to every subscribed socket. The run's tokens count once it ends.
    func emitSessionsChanged(_ run: ChatRun, phase: String, inputTokens: Int = 0, outputTokens: Int = 0) {
        guard !configuration.quirks.contains(.noSessionsChanged),
            var session = sessions.session(run.sessionKey)
        else { return }
        session.inputTokens += inputTokens
        session.outputTokens += outputTokens
        sessions.update(session)
        let now = Self.nowMs()
        let model = GatewayCatalog.defaultModel
        let contextUsed = session.inputTokens + session.outputTokens
        let cost = Double(session.inputTokens) * 0.000_003 + Double(session.outputTokens) * 0.000_015
        let status = phase == "start" ? "running" : phase == "error" ? "failed" : "done"
        let payload: JSONValue = [
            "sessionKey": .string(run.sessionKey), "phase": .string(phase), "runId": .string(run.runId),
            "ts": .int(now), "updatedAt": .int(session.updatedAt), "sessionId": .string(session.sessionId),
            "inputTokens": .int(session.inputTokens), "outputTokens": .int(session.outputTokens),
            "totalTokens": .int(contextUsed), "totalTokensFresh": .bool(phase != "start"),
            "contextTokens": .int(model.contextTokens), "estimatedCostUsd": .double(cost),
            "modelProvider": .string(model.provider), "model": .string(session.model ?? model.id),
            "status": .string(status), "hasActiveRun": .bool(phase == "start"),
        ]
        _ = broadcast(GatewayEventName.sessionsChanged, payload: payload) { connection in
            connection.sessionsSubscribed && ScopePolicy.allows(connection.scopes, OperatorScope.read)
        }
    }
}
