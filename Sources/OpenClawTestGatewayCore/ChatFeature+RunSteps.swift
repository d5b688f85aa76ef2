import OpenClawProtocol

extension ChatFeature {
    // MARK: Run steps (called by RunPerformer)

    func runStarted(_ runId: String, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        emitAgent(
            &run, stream: "lifecycle", data: ["phase": "start", "startedAt": .int(GatewayHub.nowMs())], in: gateway)
        runs[runId] = run
        gateway.sessions.emitSessionsChanged(run, phase: "start", in: gateway)
        return true
    }

    func runThinking(_ runId: String, chunk: String, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        run.draft.appendThinking(chunk)
        emitAgent(
            &run, stream: "thinking", data: ["text": .string(run.draft.thinking), "delta": .string(chunk)], in: gateway)
        runs[runId] = run
        return true
    }

    func runText(_ runId: String, chunk: String, in gateway: isolated GatewayHub) -> Bool {
        // Taken out of the dictionary so the texts are uniquely referenced and grow in place.
        guard var run = runs.removeValue(forKey: runId) else { return false }
        run.draft.appendText(chunk)
        run.appendLiveText(chunk)
        let seq = emitAgent(
            &run, stream: "assistant", data: assistantData(run, delta: chunk, replace: false, in: gateway), in: gateway)
        emitChatDelta(&run, seq: seq, in: gateway)
        runs[runId] = run
        return true
    }

    func runReplaceText(_ runId: String, text: String, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        run.draft.replaceText(text)
        run.replaceLiveText(text)
        let seq = emitAgent(
            &run, stream: "assistant", data: assistantData(run, delta: text, replace: true, in: gateway), in: gateway)
        emitChatDelta(&run, seq: seq, in: gateway)
        runs[runId] = run
        return true
    }

    /// `assistant` agent data: cumulative `text` and `delta`; late gateways (deltas without
    /// `message`) send the delta only.
    func assistantData(_ run: ChatRun, delta: String, replace: Bool, in gateway: isolated GatewayHub) -> JSONValue {
        var data: [String: JSONValue] = ["delta": .string(delta)]
        if !(gateway.v4 && gateway.configuration.v4Deltas == .withoutMessage) { data["text"] = .string(run.draft.text) }
        if replace { data["replace"] = true }
        return .object(data)
    }

    /// A v4 `status` chat event (late gateways: the run is preparing, before its first delta); v3 has
    /// no such state and sends nothing.
    func runStatus(_ runId: String, phase: String, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        if gateway.v4 {
            let payload: JSONValue = [
                "runId": .string(runId), "sessionKey": .string(run.sessionKey), "seq": .int(run.nextSeq()),
                "state": "status", "phase": .string(phase),
            ]
            broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run, in: gateway)
        }
        runs[runId] = run
        return true
    }

    /// Late v4 transcript retirement: the reply so far is stored as an assistant message mid-run and
    /// the live text restarts, announced by `{deltaText: "", replace: true}`; the `final` still carries
    /// the whole run's text (`docs/gateway-protocol-v4.md` §3.2 rule 4). v3 never does this.
    func runCommitText(_ runId: String, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        if gateway.v4, !run.silent, !run.chatText.isEmpty {
            emitChatDelta(&run, seq: run.agentSeq, flush: true, in: gateway)
            storeAssistant(&run, stopReason: "stop", in: gateway)
            run.commitLiveText()
            emitChatDelta(&run, seq: run.nextSeq(), flush: true, in: gateway)
        }
        runs[runId] = run
        return true
    }

    func runToolStarted(_ runId: String, call: ScriptedToolCall, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        emitChatDelta(&run, seq: run.agentSeq, flush: true, in: gateway)
        run.toolCalls += 1
        let callId = Self.toolCallId(runId, run.toolCalls)
        run.draft.appendToolCall(id: callId, name: call.name, arguments: call.arguments)
        storeAssistant(&run, stopReason: "toolUse", in: gateway)
        let seq = run.nextSeq()
        sendToolEvent(
            run, seq: seq,
            data: [
                "phase": "start", "name": .string(call.name), "toolCallId": .string(callId), "args": call.arguments,
            ], in: gateway)
        runs[runId] = run
        return true
    }

    func runToolFinished(_ runId: String, call: ScriptedToolCall, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        let callId = Self.toolCallId(runId, run.toolCalls)
        let now = GatewayHub.nowMs()
        gateway.sessions.store.append(
            [
                "role": "toolResult", "toolCallId": .string(callId), "toolName": .string(call.name),
                "content": [["type": "text", "text": .string(call.result)]], "isError": .bool(call.isError),
                "timestamp": .int(now),
            ], id: GatewayHub.entryId(), to: run.sessionKey, nowMs: now)
        let seq = run.nextSeq()
        let meta = call.arguments["command"]?.stringValue ?? call.name
        sendToolEvent(
            run, seq: seq,
            data: [
                "phase": "result", "name": .string(call.name), "toolCallId": .string(callId), "meta": .string(meta),
                "isError": .bool(call.isError),
            ], in: gateway)
        runs[runId] = run
        return true
    }

    func runFinished(_ runId: String, in gateway: isolated GatewayHub) {
        guard var run = runs.removeValue(forKey: runId) else { return }
        emitChatDelta(&run, seq: run.agentSeq, flush: true, in: gateway)
        let now = GatewayHub.nowMs()
        idempotency.store(runId, .ok, nowMs: now)
        let seq = emitAgent(&run, stream: "lifecycle", data: ["phase": "end", "endedAt": .int(now)], in: gateway)
        if !run.silent { storeAssistant(&run, stopReason: "stop", in: gateway) }
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
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run, in: gateway)
        gateway.sessions.emitSessionsChanged(
            run, phase: "end", inputTokens: 12, outputTokens: max(1, run.draft.text.count / 4), in: gateway)
        drainQueuedTurns(sessionKey: run.sessionKey, in: gateway)
    }

    func runFailed(_ runId: String, message: String, kind: String, in gateway: isolated GatewayHub) {
        guard var run = runs.removeValue(forKey: runId) else { return }
        let now = GatewayHub.nowMs()
        idempotency.store(runId, .error(summary: message), nowMs: now)
        let seq = emitAgent(
            &run, stream: "lifecycle", data: ["phase": "error", "error": .string(message), "endedAt": .int(now)],
            in: gateway)
        storeAssistant(&run, stopReason: "error", errorMessage: message, keepEmpty: true, in: gateway)
        let payload: JSONValue = [
            "runId": .string(runId), "sessionKey": .string(run.sessionKey), "seq": .int(seq), "state": "error",
            "errorMessage": .string(message), "errorKind": .string(kind),
        ]
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run, in: gateway)
        gateway.sessions.emitSessionsChanged(run, phase: "error", inputTokens: 12, in: gateway)
        drainQueuedTurns(sessionKey: run.sessionKey, in: gateway)
    }
}
