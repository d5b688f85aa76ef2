import OpenClawProtocol

extension GatewayHub {
    /// A request after the handshake: role, then scope, then the method.
    func handle(_ request: RequestFrame, from id: Int) {
        guard let connection = connections[id], connection.isOpen else { return }
        let method = request.method
        requestCounts[method, default: 0] += 1
        lastArrivals[method] = .now
        lastParams[method] = request.params ?? [:]
        if GatewayCatalog.nodeOnlyMethods.contains(method) != (connection.role == "node"),
            method != GatewayMethodName.health
        {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unauthorized role: \(connection.role)"))
            return
        }
        if let scope = ScopePolicy.requiredScope(for: method), !ScopePolicy.allows(connection.scopes, scope) {
            respond(
                to: id, requestId: request.id,
                error: ScopePolicy.missingScopeError(scope, style: configuration.missingScopeStyle))
            return
        }
        switch method {
        case GatewayMethodName.health: handleHealth(request, from: id)
        case GatewayMethodName.chatHistory: handleChatHistory(request, from: id)
        case GatewayMethodName.chatMessageGet: handleChatMessageGet(request, from: id)
        case GatewayMethodName.chatSend: handleChatSend(request, from: id)
        case GatewayMethodName.chatAbort: handleChatAbort(request, from: id)
        case GatewayMethodName.sessionsList: handleSessionsList(request, from: id)
        case GatewayMethodName.sessionsPatch: handleSessionsPatch(request, from: id)
        case GatewayMethodName.sessionsReset: handleSessionsReset(request, from: id)
        case GatewayMethodName.modelsList: handleModelsList(request, from: id)
        case GatewayMethodName.agentIdentity:
            simple(request, from: id, shape: ProtocolShapes.agentIdentityParams, payload: GatewayCatalog.identity)
        case GatewayMethodName.commandsList where !configuration.quirks.contains(.noCommandsList):
            handleCommandsList(request, from: id)
        case GatewayMethodName.sessionsSubscribe where !configuration.quirks.contains(.noSessionsChanged):
            handleSessionsSubscribe(request, from: id)
        case SessionApprovalNames.subscribeMethod where sessionApprovalsOffered:
            handleSessionsMessagesSubscribe(request, from: id)
        case SessionApprovalNames.unsubscribeMethod where sessionApprovalsOffered:
            handleSessionsMessagesUnsubscribe(request, from: id)
        case GatewayMethodName.artifactsDownload where v4 && !configuration.quirks.contains(.noArtifacts):
            handleArtifactsDownload(request, from: id)
        case GatewayMethodName.devicePairList: handlePairList(request, from: id)
        case GatewayMethodName.devicePairApprove: handlePairApprove(request, from: id)
        case ExecApprovalNames.resolveMethod: handleApprovalResolve(request, from: id)
        case ExecApprovalNames.listMethod: handleApprovalList(request, from: id)
        case ExecApprovalNames.getMethod: handleApprovalGet(request, from: id)
        case ApprovalNames.resolveMethod: handleUnifiedApprovalResolve(request, from: id)
        case ApprovalNames.getMethod where v4: handleApprovalRecordGet(request, from: id)
        case ApprovalNames.historyMethod where v4: handleApprovalHistory(request, from: id)
        case QuestionNames.listMethod where questionsOffered: handleQuestionList(request, from: id)
        case QuestionNames.getMethod where questionsOffered: handleQuestionGet(request, from: id)
        case QuestionNames.resolveMethod where questionsOffered: handleQuestionResolve(request, from: id)
        case _ where Self.nodeMethods.contains(method): handleNodeMethod(request, from: id)
        default:
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(method)"))
        }
    }

    /// Validates params against `shape` (absent params count as `{}`); answers the error itself.
    func validParams(_ request: RequestFrame, shape: ObjectShape, from id: Int) -> JSONValue? {
        let params = request.params ?? [:]
        let problems = shape.problems(in: params)
        guard problems.isEmpty else {
            let message = "invalid \(request.method) params: " + problems.joined(separator: "; ")
            respond(to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: message))
            return nil
        }
        return params
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
        let recent: [JSONValue] = sessions.sessions.values.sorted { $0.updatedAt > $1.updatedAt }.prefix(5).map {
            ["key": .string($0.key), "updatedAt": .int($0.updatedAt), "age": .int(now - $0.updatedAt)]
        }
        return [
            "ok": true, "ts": .int(now), "durationMs": 0, "channels": [:], "channelOrder": [], "channelLabels": [:],
            "heartbeatSeconds": 0, "defaultAgentId": "main",
            "agents": [["agentId": "main", "isDefault": true, "sessions": ["count": .int(sessions.sessions.count)]]],
            "sessions": [
                "path": .string(Self.sessionsPath), "count": .int(sessions.sessions.count), "recent": .array(recent),
            ],
        ]
    }

    static let sessionsPath = "/tmp/openclaw-test-gateway/agents/main/sessions/sessions.json"

    /// Upstream's handler validates no params (`server-methods/health.ts` reads only `params?.probe`),
    /// so none is refused here either.
    private func handleHealth(_ request: RequestFrame, from id: Int) {
        respond(to: id, requestId: request.id, payload: healthSummary())
    }

    private func handleChatHistory(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.chatHistoryParams(v4: v4), from: id),
            let sessionKey = params["sessionKey"]?.stringValue
        else { return }
        if let cursor = params["cursor"]?.stringValue {
            answerCatchUp(
                request, from: id, sessionKey: sessionKey, cursor: cursor, maxChars: params["maxChars"]?.intValue)
            return
        }
        let limit = params["limit"]?.intValue ?? 200
        let maxChars = params["maxChars"]?.intValue ?? configuration.historyMaxChars
        let session = sessions.session(sessionKey)
        let window = sessions.history(
            sessionKey, limit: limit, maxChars: maxChars, offset: params["offset"]?.intValue ?? 0,
            images: configuration.historyImages)
        let payload = JSONValue.object(dropping: [
            ("sessionKey", .string(sessionKey)), ("sessionId", .string(session?.sessionId)),
            ("messages", .array(window.messages)),
            ("thinkingLevel", .string(session?.thinkingLevel ?? "off")),
            ("inFlightRun", v4 ? inFlightRun(sessionKey) : nil),
            // v4 paging (`docs/gateway-protocol-v4.md` §4.2); v3 has none.
            ("hasMore", v4 ? .bool(window.hasMore) : nil),
            ("nextOffset", v4 ? window.nextOffset.map(JSONValue.int) : nil),
            (
                "deltaCursor",
                v4 && !configuration.quirks.contains(.noHistoryCatchUp)
                    ? .string(sessions.deltaCursor(sessionKey)) : nil
            ),
        ])
        historyAnswers.append(HistoryAnswer(kind: .tail, messageCount: window.messages.count))
        respond(to: id, requestId: request.id, payload: configuration.quirks.historyPayload(payload))
    }

    /// v4 `inFlightRun {runId, text}`: the session's latest run still under way and the text it has
    /// streamed so far, so a client that reconnects mid-run can show the reply without waiting for the
    /// end. Absent when no run is going (and always in v3, which has no such field).
    func inFlightRun(_ rawKey: String) -> JSONValue? {
        let key = SessionStore.canonicalKey(rawKey)
        guard let run = runs.values.filter({ $0.sessionKey == key }).max(by: { $0.ordinal < $1.ordinal }) else {
            return nil
        }
        return ["runId": .string(run.runId), "text": .string(run.chatText)]
    }

    private func handleSessionsList(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.sessionsListParams(v4: v4), from: id) else {
            return
        }
        var rows = sessions.sessions.values.sorted { $0.updatedAt > $1.updatedAt }
        if let limit = params["limit"]?.intValue { rows = Array(rows.prefix(limit)) }
        let model = GatewayCatalog.defaultModel
        let sessionRows: [JSONValue] = rows.map { session in
            .object(dropping: [
                ("key", .string(session.key)), ("kind", "direct"),
                ("displayName", .string(session.key == SessionStore.mainSessionKey ? "Main" : nil)),
                ("updatedAt", .int(session.updatedAt)), ("sessionId", .string(session.sessionId)),
                ("thinkingLevel", .string(session.thinkingLevel)), ("modelProvider", .string(model.provider)),
                ("model", .string(session.model ?? model.id)), ("contextTokens", .int(model.contextTokens)),
                ("abortedLastRun", false),
            ])
        }
        respond(
            to: id, requestId: request.id,
            payload: [
                "ts": .int(Self.nowMs()), "path": .string(Self.sessionsPath), "count": .int(sessionRows.count),
                "defaults": [
                    "modelProvider": .string(model.provider), "model": .string(model.id),
                    "contextTokens": .int(model.contextTokens),
                ],
                "sessions": .array(sessionRows),
            ])
    }

    private func handlePairList(_ request: RequestFrame, from id: Int) {
        guard validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
        let pending = pairing.pending.values.sorted { $0.ts < $1.ts }.map(\.json)
        let paired: [JSONValue] = pairing.devices.values.sorted { $0.deviceId < $1.deviceId }.map {
            [
                "deviceId": .string($0.deviceId), "publicKey": .string($0.publicKey),
                "roles": .strings($0.roles.sorted()) ?? [], "scopes": .strings($0.scopes.sorted()) ?? [],
            ]
        }
        respond(to: id, requestId: request.id, payload: ["pending": .array(pending), "paired": .array(paired)])
    }

    private func handlePairApprove(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.pairApproveParams, from: id),
            let requestId = params["requestId"]?.stringValue
        else { return }
        guard let pending = pairing.pending[requestId] else {
            respond(
                to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unknown requestId"))
            return
        }
        approvePairing(requestId: requestId)
        respond(
            to: id, requestId: request.id,
            payload: [
                "requestId": .string(requestId),
                "device": ["deviceId": .string(pending.deviceId), "role": .string(pending.role)],
            ])
    }
}
