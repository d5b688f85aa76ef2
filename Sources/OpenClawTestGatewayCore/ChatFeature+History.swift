import OpenClawProtocol

/// The summer-2026 history methods: catch-up through `chat.history` with a `cursor`, and
/// `chat.message.get` for one message without the page's truncation.
extension ChatFeature {
    func handleChatHistory(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(
                request, shape: ProtocolShapes.chatHistoryParams(v4: gateway.v4), from: id),
            let sessionKey = params["sessionKey"]?.stringValue
        else { return }
        if let cursor = params["cursor"]?.stringValue {
            answerCatchUp(
                request, from: id, sessionKey: sessionKey, cursor: cursor, maxChars: params["maxChars"]?.intValue,
                in: gateway)
            return
        }
        let limit = params["limit"]?.intValue ?? 200
        let maxChars = params["maxChars"]?.intValue ?? gateway.configuration.historyMaxChars
        let session = gateway.sessions.store.session(sessionKey)
        let window = gateway.sessions.store.history(
            sessionKey, limit: limit, maxChars: maxChars, offset: params["offset"]?.intValue ?? 0,
            images: gateway.configuration.historyImages)
        let payload = JSONValue.object(dropping: [
            ("sessionKey", .string(sessionKey)), ("sessionId", .string(session?.sessionId)),
            ("messages", .array(window.messages)),
            ("thinkingLevel", .string(session?.thinkingLevel ?? "off")),
            ("inFlightRun", gateway.v4 ? inFlightRun(sessionKey, in: gateway) : nil),
            // v4 paging (`docs/gateway-protocol-v4.md` §4.2); v3 has none.
            ("hasMore", gateway.v4 ? .bool(window.hasMore) : nil),
            ("nextOffset", gateway.v4 ? window.nextOffset.map(JSONValue.int) : nil),
            (
                "deltaCursor",
                gateway.v4 && !gateway.configuration.quirks.contains(.noHistoryCatchUp)
                    ? .string(gateway.sessions.store.deltaCursor(sessionKey)) : nil
            ),
        ])
        historyAnswers.append(HistoryAnswer(kind: .tail, messageCount: window.messages.count))
        gateway.respond(to: id, requestId: request.id, payload: gateway.configuration.quirks.historyPayload(payload))
    }

    /// v4 `inFlightRun {runId, text}`: the session's latest run still under way and the text it has
    /// streamed so far, so a client that reconnects mid-run can show the reply without waiting for the
    /// end. Absent when no run is going (and always in v3, which has no such field).
    func inFlightRun(_ rawKey: String, in gateway: isolated GatewayHub) -> JSONValue? {
        let key = SessionStore.canonicalKey(rawKey)
        guard let run = runs.values.filter({ $0.sessionKey == key }).max(by: { $0.ordinal < $1.ordinal }) else {
            return nil
        }
        return ["runId": .string(run.runId), "text": .string(run.chatText)]
    }

    /// `chat.history` with `cursor` (upstream `ChatHistoryCursorResultSchema`): `{kind: "delta",
    /// messages, deltaCursor, sessionInfo}` with what was stored since, or `{kind: "reset"}`.
    func answerCatchUp(
        _ request: RequestFrame, from id: Int, sessionKey: String, cursor: String, maxChars: Int?,
        in gateway: isolated GatewayHub
    ) {
        let maxChars = maxChars ?? gateway.configuration.historyMaxChars
        guard
            let window = gateway.sessions.store.catchUp(
                sessionKey, cursor: cursor, maxChars: maxChars, images: gateway.configuration.historyImages)
        else {
            historyAnswers.append(HistoryAnswer(kind: .reset, messageCount: 0))
            gateway.respond(to: id, requestId: request.id, payload: ["kind": "reset"])
            return
        }
        let running = inFlightRun(sessionKey, in: gateway)
        let payload = JSONValue.object(dropping: [
            ("kind", "delta"), ("messages", .array(window.messages)), ("deltaCursor", .string(window.deltaCursor)),
            ("sessionInfo", ["hasActiveRun": .bool(running != nil)]), ("inFlightRun", running),
        ])
        historyAnswers.append(HistoryAnswer(kind: .delta, messageCount: window.messages.count))
        gateway.respond(to: id, requestId: request.id, payload: payload)
    }

    /// `chat.message.get` (upstream `ChatMessageGetParamsSchema` / `ChatMessageGetResultSchema`): the
    /// message whose `__openclaw.id` is `messageId`, cut only at the request's `maxChars`, or
    /// `{ok: false, unavailableReason: "not_found"}`.
    func handleChatMessageGet(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.chatMessageGetParams, from: id),
            let sessionKey = params["sessionKey"]?.stringValue, let messageId = params["messageId"]?.stringValue
        else { return }
        guard let session = gateway.sessions.store.session(sessionKey),
            let index = session.entries.firstIndex(where: { $0.id == messageId })
        else {
            gateway.respond(to: id, requestId: request.id, payload: ["ok": false, "unavailableReason": "not_found"])
            return
        }
        let entry = session.entries[index]
        var message = SessionStore.presentingImages(
            SessionStore.truncated(entry.message, maxChars: params["maxChars"]?.intValue),
            form: gateway.configuration.historyImages, sessionKey: session.key, entryId: entry.id)
        if case .object(var members) = message {
            members["__openclaw"] = SessionStore.entryInfo(entry, seq: index + 1)
            message = .object(members)
        }
        gateway.respond(to: id, requestId: request.id, payload: ["ok": true, "message": message])
    }
}
