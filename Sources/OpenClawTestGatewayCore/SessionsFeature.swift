import OpenClawProtocol

/// Sessions: the store of transcripts and settings, and the methods that list, patch, reset and
/// watch them (`sessions.*`); chat runs write through it.
final class SessionsFeature {
    var store = SessionStore()

    init() {}

    static let sessionsPath = "/tmp/openclaw-test-gateway/agents/main/sessions/store.json"

    func handle(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        switch request.method {
        case GatewayMethodName.sessionsList: handleSessionsList(request, from: id, in: gateway)
        case GatewayMethodName.sessionsPatch: handleSessionsPatch(request, from: id, in: gateway)
        case GatewayMethodName.sessionsReset: handleSessionsReset(request, from: id, in: gateway)
        case GatewayMethodName.sessionsSubscribe: handleSessionsSubscribe(request, from: id, in: gateway)
        default:
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(request.method)"))
        }
    }

    private func handleSessionsList(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(
                request, shape: ProtocolShapes.sessionsListParams(v4: gateway.v4), from: id)
        else {
            return
        }
        var rows = store.sessions.values.sorted { $0.updatedAt > $1.updatedAt }
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
        gateway.respond(
            to: id, requestId: request.id,
            payload: [
                "ts": .int(GatewayHub.nowMs()), "path": .string(Self.sessionsPath), "count": .int(sessionRows.count),
                "defaults": [
                    "modelProvider": .string(model.provider), "model": .string(model.id),
                    "contextTokens": .int(model.contextTokens),
                ],
                "sessions": .array(sessionRows),
            ])
    }

    /// `sessions.patch {key, …}`: changes a session's settings, creating the session if needed;
    /// `null` clears a setting. Admin-only in v3; v4 lets `operator.write` change the label and the
    /// model, the rest stays admin (`docs/gateway-protocol-v4.md` §4.3, upstream
    /// `src/gateway/server-methods/sessions.ts`). Answers `{ok, path, key, entry, resolved}`.
    func handleSessionsPatch(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let connection = gateway.peers[id],
            let params = gateway.validParams(
                request, shape: ProtocolShapes.sessionsPatchParams(v4: gateway.v4), from: id),
            let rawKey = params["key"]?.stringValue
        else { return }
        let needsAdmin = Self.patchNeedsAdmin(fields: Set(params.objectValue?.keys.map { $0 } ?? []), v4: gateway.v4)
        if needsAdmin, !ScopePolicy.allows(connection.scopes, OperatorScope.admin) {
            gateway.respond(
                to: id, requestId: request.id,
                error: ScopePolicy.missingScopeError(
                    OperatorScope.admin, style: gateway.configuration.missingScopeStyle))
            return
        }
        var session = store.ensure(rawKey, newSessionId: GatewayHub.newId(), nowMs: GatewayHub.nowMs())
        // Present members, `null` included (it clears): the raw members, since the subscript reads `null`
        // as absent.
        let members = params.objectValue ?? [:]
        if let value = members["label"] { session.label = value.stringValue }
        if let value = members["model"] { session.model = value.stringValue }
        if let value = members["thinkingLevel"] { session.thinkingLevel = value.stringValue ?? "off" }
        session.updatedAt = GatewayHub.nowMs()
        store.update(session)
        emitSessionsChanged(sessionKey: session.key, in: gateway)
        let model = GatewayCatalog.defaultModel
        let entry = JSONValue.object(dropping: [
            ("sessionId", .string(session.sessionId)), ("updatedAt", .int(session.updatedAt)),
            ("label", session.label.map(JSONValue.string)), ("thinkingLevel", .string(session.thinkingLevel)),
            ("model", session.model.map(JSONValue.string)),
        ])
        gateway.respond(
            to: id, requestId: request.id,
            payload: [
                "ok": true, "path": .string(Self.sessionsPath), "key": .string(session.key), "entry": entry,
                "resolved": [
                    "modelProvider": .string(model.provider), "model": .string(session.model ?? model.id),
                ],
            ])
    }

    /// `sessions.reset {key, reason?}` (admin, by the scope table): the session gets a new id and an
    /// empty transcript; its settings stay. Answers `{ok, key, entry}`.
    func handleSessionsReset(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(
                request, shape: ProtocolShapes.sessionsResetParams(v4: gateway.v4), from: id),
            let rawKey = params["key"]?.stringValue
        else { return }
        let session = resetSession(rawKey)
        gateway.respond(
            to: id, requestId: request.id,
            payload: [
                "ok": true, "key": .string(session.key),
                "entry": ["sessionId": .string(session.sessionId), "updatedAt": .int(session.updatedAt)],
            ])
    }

    /// Organization fields and the model need only `operator.write` (`docs/gateway/protocol.md`,
    /// `sessions.patch`); every other override stays admin, and in v3 the whole method is admin.
    static func patchNeedsAdmin(fields: Set<String>, v4: Bool) -> Bool {
        let writeFields: Set<String> = [
            "key", "agentId", "label", "model", "category", "archived", "pinned", "unread", "expectedSessionId",
        ]
        return !v4 || !fields.isSubset(of: writeFields)
    }

    /// A session afresh, as `sessions.reset` and the `/new` and `/reset` chat commands leave it: a new
    /// session id, no messages, the same settings.
    func resetSession(_ rawKey: String) -> ChatSession {
        var session = store.ensure(rawKey, newSessionId: GatewayHub.newId(), nowMs: GatewayHub.nowMs())
        session.sessionId = GatewayHub.newId()
        session.entries = []
        session.updatedAt = GatewayHub.nowMs()
        store.update(session)
        return session
    }
}
