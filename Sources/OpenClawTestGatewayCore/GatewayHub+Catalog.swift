import OpenClawProtocol

/// The methods no feature owns: stateless answers from `GatewayCatalog` (and the health summary,
/// read off the session store).
extension GatewayHub {
    func answerFromCatalog(_ request: RequestFrame, from id: Int) {
        switch request.method {
        case GatewayMethodName.health: handleHealth(request, from: id)
        case GatewayMethodName.modelsList: handleModelsList(request, from: id)
        case GatewayMethodName.agentIdentity:
            simple(request, from: id, shape: ProtocolShapes.agentIdentityParams, payload: GatewayCatalog.identity)
        case GatewayMethodName.commandsList: handleCommandsList(request, from: id)
        default:
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(request.method)"))
        }
    }

    private func handleCommandsList(_ request: RequestFrame, from id: Int) {
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

    /// `models.list`: v4 refuses `preparedOnly` and `refresh` both true (the schema's `not` clause).
    private func handleModelsList(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.modelsListParams(v4: v4), from: id) else {
            return
        }
        if params["preparedOnly"] == true, params["refresh"] == true {
            let message = "invalid models.list params: at root: must NOT be valid"
            respond(to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: message))
            return
        }
        respond(to: id, requestId: request.id, payload: GatewayCatalog.models)
    }

    private func simple(_ request: RequestFrame, from id: Int, shape: ObjectShape, payload: JSONValue) {
        guard validParams(request, shape: shape, from: id) != nil else { return }
        respond(to: id, requestId: request.id, payload: payload)
    }

    /// The `HealthSummary` the gateway caches; also `hello-ok.snapshot.health`.
    func healthSummary() -> JSONValue {
        let now = Self.nowMs()
        let recent: [JSONValue] = sessions.store.sessions.values.sorted { $0.updatedAt > $1.updatedAt }.prefix(5).map {
            ["key": .string($0.key), "updatedAt": .int($0.updatedAt), "age": .int(now - $0.updatedAt)]
        }
        return [
            "ok": true, "ts": .int(now), "durationMs": 0, "channels": [:], "channelOrder": [], "channelLabels": [:],
            "heartbeatSeconds": 0, "defaultAgentId": "main",
            "agents": [
                ["agentId": "main", "isDefault": true, "sessions": ["count": .int(sessions.store.sessions.count)]]
            ],
            "sessions": [
                "path": .string(SessionsFeature.sessionsPath), "count": .int(sessions.store.sessions.count),
                "recent": .array(recent),
            ],
        ]
    }

    /// Upstream's handler validates no params (`server-methods/health.ts` reads only `params?.probe`),
    /// so none is refused here either.
    private func handleHealth(_ request: RequestFrame, from id: Int) {
        respond(to: id, requestId: request.id, payload: healthSummary())
    }
}
