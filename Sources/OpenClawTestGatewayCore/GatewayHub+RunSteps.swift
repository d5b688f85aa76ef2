import OpenClawProtocol

extension GatewayHub {
    // MARK: Run steps (called by RunPerformer)

    func runStarted(_ runId: String) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        emitAgent(&run, stream: "lifecycle", data: ["phase": "start", "startedAt": .int(Self.nowMs())])
        runs[runId] = run
        emitSessionsChanged(run, phase: "start")
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
        run.appendLiveText(chunk)
        let seq = emitAgent(&run, stream: "assistant", data: assistantData(run, delta: chunk, replace: false))
        emitChatDelta(&run, seq: seq)
        runs[runId] = run
        return true
    }

    func runReplaceText(_ runId: String, text: String) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        run.draft.replaceText(text)
        run.replaceLiveText(text)
        let seq = emitAgent(&run, stream: "assistant", data: assistantData(run, delta: text, replace: true))
        emitChatDelta(&run, seq: seq)
        runs[runId] = run
        return true
    }

    /// `assistant` agent data: cumulative `text` and `delta`; late gateways (deltas without
    /// `message`) send the delta only.
    func assistantData(_ run: ChatRun, delta: String, replace: Bool) -> JSONValue {
        var data: [String: JSONValue] = ["delta": .string(delta)]
        if !(v4 && configuration.v4Deltas == .withoutMessage) { data["text"] = .string(run.draft.text) }
        if replace { data["replace"] = true }
        return .object(data)
    }

    /// A v4 `status` chat event (late gateways: the run is preparing, before its first delta); v3 has
    /// no such state and sends nothing.
    func runStatus(_ runId: String, phase: String) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        if v4 {
            let payload: JSONValue = [
                "runId": .string(runId), "sessionKey": .string(run.sessionKey), "seq": .int(run.nextSeq()),
                "state": "status", "phase": .string(phase),
            ]
            broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run)
        }
        runs[runId] = run
        return true
    }

    /// Late v4 transcript retirement: the reply so far is stored as an assistant message mid-run and
    /// the live text restarts, announced by `{deltaText: "", replace: true}`; the `final` still carries
    /// the whole run's text (`docs/gateway-protocol-v4.md` §3.2 rule 4). v3 never does this.
    func runCommitText(_ runId: String) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        if v4, !run.silent, !run.chatText.isEmpty {
            emitChatDelta(&run, seq: run.agentSeq, flush: true)
            storeAssistant(&run, stopReason: "stop")
            run.commitLiveText()
            emitChatDelta(&run, seq: run.nextSeq(), flush: true)
        }
        runs[runId] = run
        return true
    }

    func runToolStarted(_ runId: String, call: ScriptedToolCall) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        emitChatDelta(&run, seq: run.agentSeq, flush: true)
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
        emitChatDelta(&run, seq: run.agentSeq, flush: true)
        let now = Self.nowMs()
        idempotency.store(runId, .ok, nowMs: now)
        let seq = emitAgent(&run, stream: "lifecycle", data: ["phase": "end", "endedAt": .int(now)])
        if !run.silent { storeAssistant(&run, stopReason: "stop") }
        let message: JSONValue? =
            run.silent
            ? nil
            : [
                "role": "assistant", "content": [["type": "text", "text": .string(run.committedText + run.chatText)]],
                "timestamp": .int(now),
            ]
        let payload = JSONValue.object(dropping: [
            ("runId", .string(runId)), ("sessionKey", .string(run.sessionKey)), ("seq", .int(seq)), ("state", "final"),
            ("message", message),
        ])
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run)
        emitSessionsChanged(run, phase: "end", inputTokens: 12, outputTokens: max(1, run.draft.text.count / 4))
        drainQueuedTurns(sessionKey: run.sessionKey)
    }

    func runFailed(_ runId: String, message: String, kind: String) {
        guard var run = runs.removeValue(forKey: runId) else { return }
        let now = Self.nowMs()
        idempotency.store(runId, .error(summary: message), nowMs: now)
        let seq = emitAgent(
            &run, stream: "lifecycle", data: ["phase": "error", "error": .string(message), "endedAt": .int(now)])
        storeAssistant(&run, stopReason: "error", errorMessage: message, keepEmpty: true)
        let payload: JSONValue = [
            "runId": .string(runId), "sessionKey": .string(run.sessionKey), "seq": .int(seq), "state": "error",
            "errorMessage": .string(message), "errorKind": .string(kind),
        ]
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run)
        emitSessionsChanged(run, phase: "error", inputTokens: 12)
        drainQueuedTurns(sessionKey: run.sessionKey)
    }
}
