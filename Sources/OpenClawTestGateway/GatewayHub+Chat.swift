import OpenClawProtocol

extension GatewayHub {
    // MARK: chat.send / chat.abort

    func handleChatSend(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.chatSendParams(v4: v4), from: id),
            let rawKey = params["sessionKey"]?.stringValue, let message = params["message"]?.stringValue,
            let runId = params["idempotencyKey"]?.stringValue
        else { return }
        let hasAttachments = !(params["attachments"]?.arrayValue ?? []).isEmpty
        if message.unicodeScalars.contains("\u{0}") {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "message must not contain null bytes"))
            return
        }
        let trimmed = message.trimmingCharacters(in: " \t\n\r")
        if trimmed.isEmpty, !hasAttachments {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "message or attachment required"))
            return
        }
        if runs[runId] != nil {
            respond(to: id, requestId: request.id, payload: ["runId": .string(runId), "status": "in_flight"])
            return
        }
        if completedRunIds.contains(runId) {
            respond(to: id, requestId: request.id, payload: ["runId": .string(runId), "status": "ok"])
            return
        }
        if trimmed.lowercased() == "/stop" {
            let aborted = abortRuns(
                matching: SessionStore.canonicalKey(rawKey), rawKey: rawKey, origin: "stop-command",
                requester: connections[id])
            respond(
                to: id, requestId: request.id,
                payload: ["ok": true, "aborted": .bool(!aborted.isEmpty), "runIds": .strings(aborted) ?? []])
            return
        }

        let dropPoint = faults.dropConnectionOnChatSend
        faults.dropConnectionOnChatSend = nil
        let now = Self.nowMs()
        _ = sessions.ensure(rawKey, newSessionId: Self.newId(), nowMs: now)
        sessions.append(
            ["role": "user", "content": .string(message), "timestamp": .int(now)], id: Self.entryId(),
            to: rawKey, nowMs: now)
        let script = configuration.agent.script(for: message)
        runsStarted += 1
        runs[runId] = ChatRun(
            runId: runId, rawSessionKey: rawKey, sessionKey: SessionStore.canonicalKey(rawKey), ownerConnection: id,
            ownerDevice: connections[id]?.deviceId, silent: script.silent, ordinal: runsStarted
        )
        if dropPoint == .beforeAck {
            drop(id)
        } else {
            respond(to: id, requestId: request.id, payload: ["runId": .string(runId), "status": "started"])
            if dropPoint == .afterAck { drop(id) }
        }
        runs[runId]?.task = Task { [weak self] in
            guard let self else { return }
            await RunPerformer.perform(script, runId: runId, hub: self)
        }
    }

    func handleChatAbort(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.chatAbortParams(v4: v4), from: id),
            let rawKey = params["sessionKey"]?.stringValue
        else { return }
        let requester = connections[id]
        guard let runId = params["runId"]?.stringValue else {
            let candidates = runs.values.filter { $0.sessionKey == SessionStore.canonicalKey(rawKey) }
            guard candidates.isEmpty || candidates.contains(where: { canAbort($0, requester) }) else {
                respond(
                    to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unauthorized"))
                return
            }
            let aborted = abortRuns(
                matching: SessionStore.canonicalKey(rawKey), rawKey: rawKey, origin: "rpc",
                requester: requester)
            respond(
                to: id, requestId: request.id,
                payload: ["ok": true, "aborted": .bool(!aborted.isEmpty), "runIds": .strings(aborted) ?? []])
            return
        }
        guard let run = runs[runId] else {
            respond(to: id, requestId: request.id, payload: ["ok": true, "aborted": false, "runIds": []])
            return
        }
        guard run.rawSessionKey == rawKey else {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "runId does not match sessionKey"))
            return
        }
        guard canAbort(run, requester) else {
            respond(to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unauthorized"))
            return
        }
        abort(runId, rawKey: rawKey, origin: "rpc")
        respond(to: id, requestId: request.id, payload: ["ok": true, "aborted": true, "runIds": [.string(runId)]])
    }

    /// Runs may be aborted by the socket or device that started them, or by an admin.
    private func canAbort(_ run: ChatRun, _ requester: ConnectionState?) -> Bool {
        guard let requester else { return false }
        if requester.scopes.contains(OperatorScope.admin) || requester.id == run.ownerConnection { return true }
        return run.ownerDevice != nil && run.ownerDevice == requester.deviceId
    }

    private func abortRuns(
        matching sessionKey: String, rawKey: String, origin: String,
        requester: ConnectionState?
    ) -> [String] {
        let ids = runs.values.filter { $0.sessionKey == sessionKey && canAbort($0, requester) }.map(\.runId).sorted()
        for runId in ids { abort(runId, rawKey: rawKey, origin: origin) }
        return ids
    }

    /// Stops a run: the partial text is stored and one `aborted` chat event is broadcast.
    private func abort(_ runId: String, rawKey: String, origin: String) {
        guard var run = runs.removeValue(forKey: runId) else { return }
        run.task?.cancel()
        completedRunIds.insert(runId)
        let now = Self.nowMs()
        let partial = run.chatText
        let partialMessage: JSONValue = [
            "role": "assistant", "content": [["type": "text", "text": .string(partial)]], "timestamp": .int(now),
        ]
        if !partial.isEmpty, !run.silent {
            var stored = GatewayCatalog.assistantOrigin
            stored["provider"] = "openclaw"
            stored["model"] = "gateway-injected"
            stored["role"] = "assistant"
            stored["content"] = [["type": "text", "text": .string(partial)]]
            stored["usage"] = GatewayCatalog.usage(input: 0, output: 0)
            stored["stopReason"] = "stop"
            stored["timestamp"] = .int(now)
            stored["openclawAbort"] = ["aborted": true, "origin": .string(origin), "runId": .string(runId)]
            sessions.append(.object(stored), id: Self.entryId(), to: run.sessionKey, nowMs: now)
        }
        let payload = JSONValue.object(dropping: [
            ("runId", .string(runId)), ("sessionKey", .string(rawKey)), ("seq", .int(run.nextSeq())),
            ("state", "aborted"), ("stopReason", .string(origin == "rpc" ? "rpc" : "stop")),
            ("message", partial.isEmpty || run.silent ? nil : partialMessage),
        ])
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run)
    }

    static func entryId() -> String { String(newId().prefix(8)) }

    // MARK: Run steps (called by RunPerformer)

    func runStarted(_ runId: String) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        emitAgent(&run, stream: "lifecycle", data: ["phase": "start", "startedAt": .int(Self.nowMs())])
        runs[runId] = run
        return true
    }

    func runThinking(_ runId: String, chunk: String) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        run.draft.appendThinking(chunk)
        emitAgent(&run, stream: "thinking", data: ["text": .string(run.draft.thinking), "delta": .string(chunk)])
        runs[runId] = run
        return true
    }

    func runText(_ runId: String, chunk: String) -> Bool {
        // Taken out of the dictionary so the texts are uniquely referenced and grow in place.
        guard var run = runs.removeValue(forKey: runId) else { return false }
        run.draft.appendText(chunk)
        run.chatText.append(chunk)
        let seq = emitAgent(&run, stream: "assistant", data: assistantData(run, delta: chunk, replace: false))
        emitChatDelta(&run, seq: seq, change: .appended(chunk))
        runs[runId] = run
        return true
    }

    func runReplaceText(_ runId: String, text: String) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        let previous = run.chatText
        run.draft.replaceText(text)
        run.chatText = text
        let seq = emitAgent(&run, stream: "assistant", data: assistantData(run, delta: text, replace: true))
        emitChatDelta(&run, seq: seq, change: .replaced(previous: previous))
        runs[runId] = run
        return true
    }

    /// `assistant` agent data: cumulative `text` and `delta`; late gateways (deltas without
    /// `message`) send the delta only.
    private func assistantData(_ run: ChatRun, delta: String, replace: Bool) -> JSONValue {
        var data: [String: JSONValue] = ["delta": .string(delta)]
        if !(v4 && configuration.v4Deltas == .withoutMessage) { data["text"] = .string(run.draft.text) }
        if replace { data["replace"] = true }
        return .object(data)
    }

    func runToolStarted(_ runId: String, call: ScriptedToolCall) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        run.toolCalls += 1
        let callId = Self.toolCallId(runId, run.toolCalls)
        run.draft.appendToolCall(id: callId, name: call.name, arguments: call.arguments)
        storeAssistant(&run, stopReason: "toolUse")
        let seq = run.nextSeq()
        sendToolEvent(
            run, seq: seq,
            data: [
                "phase": "start", "name": .string(call.name), "toolCallId": .string(callId), "args": call.arguments,
            ])
        runs[runId] = run
        return true
    }

    func runToolFinished(_ runId: String, call: ScriptedToolCall) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        let callId = Self.toolCallId(runId, run.toolCalls)
        let now = Self.nowMs()
        sessions.append(
            [
                "role": "toolResult", "toolCallId": .string(callId), "toolName": .string(call.name),
                "content": [["type": "text", "text": .string(call.result)]], "isError": .bool(call.isError),
                "timestamp": .int(now),
            ], id: Self.entryId(), to: run.sessionKey, nowMs: now)
        let seq = run.nextSeq()
        let meta = call.arguments["command"]?.stringValue ?? call.name
        sendToolEvent(
            run, seq: seq,
            data: [
                "phase": "result", "name": .string(call.name), "toolCallId": .string(callId), "meta": .string(meta),
                "isError": .bool(call.isError),
            ])
        runs[runId] = run
        return true
    }

    func runFinished(_ runId: String) {
        guard var run = runs.removeValue(forKey: runId) else { return }
        completedRunIds.insert(runId)
        let now = Self.nowMs()
        let seq = emitAgent(&run, stream: "lifecycle", data: ["phase": "end", "endedAt": .int(now)])
        if !run.silent { storeAssistant(&run, stopReason: "stop") }
        let message: JSONValue? =
            run.silent
            ? nil
            : [
                "role": "assistant", "content": [["type": "text", "text": .string(run.chatText)]],
                "timestamp": .int(now),
            ]
        let payload = JSONValue.object(dropping: [
            ("runId", .string(runId)), ("sessionKey", .string(run.sessionKey)), ("seq", .int(seq)), ("state", "final"),
            ("message", message),
        ])
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run)
    }

    func runFailed(_ runId: String, message: String, kind: String) {
        guard var run = runs.removeValue(forKey: runId) else { return }
        completedRunIds.insert(runId)
        let now = Self.nowMs()
        let seq = emitAgent(
            &run, stream: "lifecycle", data: ["phase": "error", "error": .string(message), "endedAt": .int(now)])
        storeAssistant(&run, stopReason: "error", errorMessage: message, keepEmpty: true)
        let payload: JSONValue = [
            "runId": .string(runId), "sessionKey": .string(run.sessionKey), "seq": .int(seq), "state": "error",
            "errorMessage": .string(message), "errorKind": .string(kind),
        ]
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run)
    }

    // MARK: Run output

    private static func toolCallId(_ runId: String, _ index: Int) -> String {
        "call_\(runId.prefix(8))_\(index)"
    }

    /// Appends the run's current assistant message to the transcript and starts a new one.
    private func storeAssistant(
        _ run: inout ChatRun, stopReason: String, errorMessage: String? = nil,
        keepEmpty: Bool = false
    ) {
        guard !run.draft.isEmpty || keepEmpty else { return }
        let now = Self.nowMs()
        var message = GatewayCatalog.assistantOrigin
        message["role"] = "assistant"
        message["content"] = .array(run.draft.content)
        message["usage"] = GatewayCatalog.usage(input: 12, output: max(1, run.draft.text.count / 4))
        message["stopReason"] = .string(stopReason)
        message["timestamp"] = .int(now)
        if let errorMessage { message["errorMessage"] = .string(errorMessage) }
        sessions.append(.object(message), id: Self.entryId(), to: run.sessionKey, nowMs: now)
        run.draft = AssistantDraft()
    }

    /// Broadcasts an agent event with the run's next `seq`; returns that `seq`.
    @discardableResult
    private func emitAgent(_ run: inout ChatRun, stream: String, data: JSONValue) -> Int {
        let seq = run.nextSeq()
        broadcastRunEvent(
            GatewayEventName.agent, payload: agentPayload(run, seq: seq, stream: stream, data: data), run: &run)
        return seq
    }

    private func agentPayload(_ run: ChatRun, seq: Int, stream: String, data: JSONValue) -> JSONValue {
        [
            "runId": .string(run.runId), "seq": .int(seq), "stream": .string(stream), "ts": .int(Self.nowMs()),
            "sessionKey": .string(run.sessionKey), "data": data,
        ]
    }

    /// Tool events go only to the socket that sent the run, if it asked for them, without frame `seq`.
    private func sendToolEvent(_ run: ChatRun, seq: Int, data: JSONValue) {
        guard let owner = connections[run.ownerConnection], owner.isOpen, owner.caps.contains("tool-events") else {
            return
        }
        sendTargetedEvent(
            GatewayEventName.agent, payload: agentPayload(run, seq: seq, stream: "tool", data: data),
            to: owner.id)
    }

    /// The chat `delta` for the run's current text: cumulative `message` in v3; `deltaText` (with
    /// `replace` for a non-prefix rewrite) and an optional `message` in v4.
    private func emitChatDelta(_ run: inout ChatRun, seq: Int, change: TextChange) {
        var payload: [String: JSONValue] = [
            "runId": .string(run.runId), "sessionKey": .string(run.sessionKey), "seq": .int(seq), "state": "delta",
        ]
        var includeMessage = true
        if v4 {
            switch change {
            case .appended(let chunk):
                guard !chunk.isEmpty else { return }
                payload["deltaText"] = .string(chunk)
            case .replaced(let previous):
                guard run.chatText != previous else { return }
                if run.chatText.hasPrefix(previous) {
                    payload["deltaText"] = .string(String(run.chatText.dropFirst(previous.count)))
                } else {
                    payload["deltaText"] = .string(run.chatText)
                    payload["replace"] = true
                }
            }
            includeMessage = configuration.v4Deltas == .withMessage
        }
        if includeMessage {
            payload["message"] = [
                "role": "assistant", "content": [["type": "text", "text": .string(run.chatText)]],
                "timestamp": .int(Self.nowMs()),
            ]
        }
        broadcastRunEvent(GatewayEventName.chat, payload: .object(payload), run: &run)
    }

    /// Broadcasts a run's `agent` or `chat` event to every socket allowed to see it, and applies the
    /// drop-after-N-run-frames, duplicate and reorder faults.
    private func broadcastRunEvent(_ event: String, payload: JSONValue, run: inout ChatRun) {
        let terminal = event == GatewayEventName.chat && payload["state"]?.stringValue != "delta"
        if !terminal, run.heldBack == nil, faultRandom.chance(faults.reorderRunEventsPercent) {
            run.heldBack = (event, payload)
            return
        }
        sendRunEvent(event, payload: payload, run: &run)
        if !terminal, faultRandom.chance(faults.duplicateRunEventsPercent) {
            sendRunEvent(event, payload: payload, run: &run)
        }
        if let held = run.heldBack {
            run.heldBack = nil
            sendRunEvent(held.event, payload: held.payload, run: &run)
        }
    }

    private func sendRunEvent(_ event: String, payload: JSONValue, run: inout ChatRun) {
        let reached = broadcast(
            event, payload: payload,
            include: { [v4] connection in
                guard v4 else { return true }
                return connection.role == "operator" && ScopePolicy.allows(connection.scopes, OperatorScope.read)
            })
        deliverQuirkDuplicate(event, payload: payload, to: reached)
        run.broadcastFrames += 1
        if let limit = faults.dropConnectionAfterRunFrames, !run.dropFired, run.broadcastFrames >= limit {
            run.dropFired = true
            for id in reached { drop(id) }
        }
    }
}
