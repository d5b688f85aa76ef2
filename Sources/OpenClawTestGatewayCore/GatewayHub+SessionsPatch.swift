import OpenClawProtocol

extension GatewayHub {
    /// `sessions.patch {key, …}`: changes a session's settings, creating the session if needed;
    /// `null` clears a setting. Admin-only in v3; v4 lets `operator.write` change the label and the
    /// model, the rest stays admin (`docs/gateway-protocol-v4.md` §4.3, upstream
    /// `src/gateway/server-methods/sessions.ts`). Answers `{ok, path, key, entry, resolved}`.
    func handleSessionsPatch(_ request: RequestFrame, from id: Int) {
        guard let connection = connections[id],
            let params = validParams(request, shape: ProtocolShapes.sessionsPatchParams(v4: v4), from: id),
            let rawKey = params["key"]?.stringValue
        else { return }
        // Organization fields and the model need only `operator.write` (`docs/gateway/protocol.md`,
        // `sessions.patch`); every other override stays admin.
        let writeFields: Set<String> = [
            "key", "agentId", "label", "model", "category", "archived", "pinned", "unread", "expectedSessionId",
        ]
        let needsAdmin = !v4 || !Set(params.objectValue?.keys.map { $0 } ?? []).isSubset(of: writeFields)
        if needsAdmin, !ScopePolicy.allows(connection.scopes, OperatorScope.admin) {
            respond(
                to: id, requestId: request.id,
                error: ScopePolicy.missingScopeError(OperatorScope.admin, style: configuration.missingScopeStyle))
            return
        }
        var session = sessions.ensure(rawKey, newSessionId: Self.newId(), nowMs: Self.nowMs())
        // Present members, `null` included (it clears): the raw members, since the subscript reads `null`
        // as absent.
        let members = params.objectValue ?? [:]
        if let value = members["label"] { session.label = value.stringValue }
        if let value = members["model"] { session.model = value.stringValue }
        if let value = members["thinkingLevel"] { session.thinkingLevel = value.stringValue ?? "off" }
        session.updatedAt = Self.nowMs()
        sessions.update(session)
        emitSessionsChanged(sessionKey: session.key)
        let model = GatewayCatalog.defaultModel
        let entry = JSONValue.object(dropping: [
            ("sessionId", .string(session.sessionId)), ("updatedAt", .int(session.updatedAt)),
            ("label", session.label.map(JSONValue.string)), ("thinkingLevel", .string(session.thinkingLevel)),
            ("model", session.model.map(JSONValue.string)),
        ])
        respond(
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
    func handleSessionsReset(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.sessionsResetParams(v4: v4), from: id),
            let rawKey = params["key"]?.stringValue
        else { return }
        let session = resetSession(rawKey)
        respond(
            to: id, requestId: request.id,
            payload: [
                "ok": true, "key": .string(session.key),
                "entry": ["sessionId": .string(session.sessionId), "updatedAt": .int(session.updatedAt)],
            ])
    }

    /// A session afresh, as `sessions.reset` and the `/new` and `/reset` chat commands leave it: a new
    /// session id, no messages, the same settings.
    func resetSession(_ rawKey: String) -> ChatSession {
        var session = sessions.ensure(rawKey, newSessionId: Self.newId(), nowMs: Self.nowMs())
        session.sessionId = Self.newId()
        session.entries = []
        session.updatedAt = Self.nowMs()
        sessions.update(session)
        return session
    }
}
