import OpenClawProtocol

/// The summer-2026 history methods: catch-up through `chat.history` with a `cursor`, and
/// `chat.message.get` for one message without the page's truncation.
extension GatewayHub {
    /// `chat.history` with `cursor` (upstream `ChatHistoryCursorResultSchema`): `{kind: "delta",
    /// messages, deltaCursor, sessionInfo}` with what was stored since, or `{kind: "reset"}`.
    func answerCatchUp(_ request: RequestFrame, from id: Int, sessionKey: String, cursor: String, maxChars: Int?) {
        let maxChars = maxChars ?? configuration.historyMaxChars
        guard
            let window = sessions.catchUp(
                sessionKey, cursor: cursor, maxChars: maxChars, images: configuration.historyImages)
        else {
            historyAnswers.append(HistoryAnswer(kind: .reset, messageCount: 0))
            respond(to: id, requestId: request.id, payload: ["kind": "reset"])
            return
        }
        let running = inFlightRun(sessionKey)
        let payload = JSONValue.object(dropping: [
            ("kind", "delta"), ("messages", .array(window.messages)), ("deltaCursor", .string(window.deltaCursor)),
            ("sessionInfo", ["hasActiveRun": .bool(running != nil)]), ("inFlightRun", running),
        ])
        historyAnswers.append(HistoryAnswer(kind: .delta, messageCount: window.messages.count))
        respond(to: id, requestId: request.id, payload: payload)
    }

    /// `chat.message.get` (upstream `ChatMessageGetParamsSchema` / `ChatMessageGetResultSchema`): the
    /// message whose `__openclaw.id` is `messageId`, cut only at the request's `maxChars`, or
    /// `{ok: false, unavailableReason: "not_found"}`.
    func handleChatMessageGet(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.chatMessageGetParams, from: id),
            let sessionKey = params["sessionKey"]?.stringValue, let messageId = params["messageId"]?.stringValue
        else { return }
        guard let session = sessions.session(sessionKey),
            let index = session.entries.firstIndex(where: { $0.id == messageId })
        else {
            respond(to: id, requestId: request.id, payload: ["ok": false, "unavailableReason": "not_found"])
            return
        }
        let entry = session.entries[index]
        var message = SessionStore.presentingImages(
            SessionStore.truncated(entry.message, maxChars: params["maxChars"]?.intValue),
            form: configuration.historyImages, sessionKey: session.key, entryId: entry.id)
        if case .object(var members) = message {
            members["__openclaw"] = SessionStore.entryInfo(entry, seq: index + 1)
            message = .object(members)
        }
        respond(to: id, requestId: request.id, payload: ["ok": true, "message": message])
    }
}
