import OpenClawProtocol

/// `commands.list`, `sessions.subscribe` and the `sessions.changed` events a subscribed socket gets
/// around each run, as upstream sends them (`docs/gateway/protocol.md` "Operator helper methods";
/// `docs/gateway/clients.md` "Subscribe instead of polling usage").
extension GatewayHub {
    func handleCommandsList(_ request: RequestFrame, from id: Int) {
        guard validParams(request, shape: ProtocolShapes.commandsListParams(v4: v4), from: id) != nil else { return }
        let commands: [JSONValue] = GatewayCatalog.commands.map { command in
            [
                "name": .string(command.name), "textAliases": [.string("/" + command.name)],
                "description": .string(command.description), "source": "native", "scope": "both",
                "acceptsArgs": .bool(command.acceptsArgs),
            ]
        }
        respond(to: id, requestId: request.id, payload: ["commands": .array(commands)])
    }

    /// Upstream's handler takes no params and validates none (`server-methods/sessions.ts`
    /// `"sessions.subscribe"`), so whatever params come are ignored, not refused.
    func handleSessionsSubscribe(_ request: RequestFrame, from id: Int) {
        connections[id]?.sessionsSubscribed = true
        respond(to: id, requestId: request.id, payload: ["subscribed": true])
    }

    /// A run's lifecycle reached `phase` (`start`, `end`, `error`): the session's row, with its
    /// usage, goes to every subscribed socket. The run's tokens count once it ends.
    func emitSessionsChanged(_ run: ChatRun, phase: String, inputTokens: Int = 0, outputTokens: Int = 0) {
        emitSessionsChanged(
            sessionKey: run.sessionKey, runId: run.runId, phase: phase, inputTokens: inputTokens,
            outputTokens: outputTokens)
    }

    /// The session's row to every subscribed socket: targeted, so without a frame `seq`
    /// (`gateway-protocol-v3.md` §6.1). Without `phase` for a settings change (`sessions.patch`).
    func emitSessionsChanged(
        sessionKey: String, runId: String? = nil, phase: String? = nil, inputTokens: Int = 0, outputTokens: Int = 0
    ) {
        guard !configuration.quirks.contains(.noSessionsChanged),
            var session = sessions.session(sessionKey)
        else { return }
        session.inputTokens += inputTokens
        session.outputTokens += outputTokens
        sessions.update(session)
        let model = GatewayCatalog.defaultModel
        let contextUsed = session.inputTokens + session.outputTokens
        let cost = Double(session.inputTokens) * 0.000_003 + Double(session.outputTokens) * 0.000_015
        let status: String? =
            switch phase {
            case "start"?: "running"
            case "error"?: "failed"
            case "end"?: "done"
            default: nil
            }
        let payload = JSONValue.object(dropping: [
            ("sessionKey", .string(session.key)), ("phase", phase.map(JSONValue.string)),
            ("runId", runId.map(JSONValue.string)), ("ts", .int(Self.nowMs())), ("updatedAt", .int(session.updatedAt)),
            ("sessionId", .string(session.sessionId)), ("inputTokens", .int(session.inputTokens)),
            ("outputTokens", .int(session.outputTokens)), ("totalTokens", .int(contextUsed)),
            ("totalTokensFresh", .bool(phase != "start")), ("contextTokens", .int(model.contextTokens)),
            ("estimatedCostUsd", .double(cost)), ("modelProvider", .string(model.provider)),
            ("model", .string(session.model ?? model.id)), ("status", status.map(JSONValue.string)),
            ("hasActiveRun", .bool(phase == "start")),
        ])
        let audience = connections.values.filter {
            $0.isOpen && $0.sessionsSubscribed && ScopePolicy.allows($0.scopes, OperatorScope.read)
        }
        for connection in audience.sorted(by: { $0.id < $1.id }) {
            sendTargetedEvent(GatewayEventName.sessionsChanged, payload: payload, to: connection.id)
        }
    }
}
