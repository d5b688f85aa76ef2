import OpenClawProtocol

/// `commands.list`, `sessions.subscribe` and the `sessions.changed` events a subscribed socket gets
/// around each run, as upstream sends them (`docs/gateway/protocol.md` "Operator helper methods";
/// `docs/gateway/clients.md` "Subscribe instead of polling usage").
extension SessionsFeature {
    /// Upstream's handler takes no params and validates none (`server-methods/sessions.ts`
    /// `"sessions.subscribe"`), so whatever params come are ignored, not refused.
    func handleSessionsSubscribe(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        gateway.peers[id]?.sessionsSubscribed = true
        gateway.respond(to: id, requestId: request.id, payload: ["subscribed": true])
    }

    /// A run's lifecycle reached `phase` (`start`, `end`, `error`): the session's row, with its
    /// usage, goes to every subscribed socket. The run's tokens count once it ends.
    func emitSessionsChanged(
        _ run: ChatRun, phase: String, inputTokens: Int = 0, outputTokens: Int = 0, in gateway: isolated GatewayHub
    ) {
        emitSessionsChanged(
            sessionKey: run.sessionKey, runId: run.runId, phase: phase, inputTokens: inputTokens,
            outputTokens: outputTokens, in: gateway)
    }

    /// The session's row to every subscribed socket: targeted, so without a frame `seq`
    /// (`gateway-protocol-v3.md` §6.1). Without `phase` for a settings change (`sessions.patch`).
    func emitSessionsChanged(
        sessionKey: String, runId: String? = nil, phase: String? = nil, inputTokens: Int = 0, outputTokens: Int = 0,
        in gateway: isolated GatewayHub
    ) {
        guard !gateway.configuration.quirks.contains(.noSessionsChanged),
            var session = store.session(sessionKey)
        else { return }
        session.inputTokens += inputTokens
        session.outputTokens += outputTokens
        store.update(session)
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
            ("runId", runId.map(JSONValue.string)), ("ts", .int(GatewayHub.nowMs())),
            ("updatedAt", .int(session.updatedAt)),
            ("sessionId", .string(session.sessionId)), ("inputTokens", .int(session.inputTokens)),
            ("outputTokens", .int(session.outputTokens)), ("totalTokens", .int(contextUsed)),
            ("totalTokensFresh", .bool(phase != "start")), ("contextTokens", .int(model.contextTokens)),
            ("estimatedCostUsd", .double(cost)), ("modelProvider", .string(model.provider)),
            ("model", .string(session.model ?? model.id)), ("status", status.map(JSONValue.string)),
            ("hasActiveRun", .bool(phase == "start")),
        ])
        let audience = gateway.peers.values.filter {
            $0.isOpen && $0.sessionsSubscribed && ScopePolicy.allows($0.scopes, OperatorScope.read)
        }
        for connection in audience.sorted(by: { $0.id < $1.id }) {
            gateway.sendTargetedEvent(GatewayEventName.sessionsChanged, payload: payload, to: connection.id)
        }
    }
}
