import OpenClawProtocol

/// What a run puts on the wire and in the transcript.
extension ChatFeature {
    static func toolCallId(_ runId: String, _ index: Int) -> String {
        "call_\(runId.prefix(8))_\(index)"
    }

    /// Appends the run's current assistant message to the transcript and starts a new one.
    func storeAssistant(
        _ run: inout ChatRun, stopReason: String, errorMessage: String? = nil,
        keepEmpty: Bool = false, in gateway: isolated GatewayHub
    ) {
        guard !run.draft.isEmpty || keepEmpty else { return }
        let now = GatewayHub.nowMs()
        var message = GatewayCatalog.assistantOrigin
        message["role"] = "assistant"
        message["content"] = .array(run.draft.content)
        message["usage"] = GatewayCatalog.usage(input: 12, output: max(1, run.draft.text.count / 4))
        message["stopReason"] = .string(stopReason)
        message["timestamp"] = .int(now)
        if let errorMessage { message["errorMessage"] = .string(errorMessage) }
        gateway.sessions.store.append(.object(message), id: GatewayHub.entryId(), to: run.sessionKey, nowMs: now)
        run.draft = AssistantDraft()
    }

    /// Broadcasts an agent event with the run's next `seq`; returns that `seq`.
    @discardableResult
    func emitAgent(_ run: inout ChatRun, stream: String, data: JSONValue, in gateway: isolated GatewayHub) -> Int {
        let seq = run.nextSeq()
        broadcastRunEvent(
            GatewayEventName.agent, payload: agentPayload(run, seq: seq, stream: stream, data: data), run: &run,
            in: gateway)
        return seq
    }

    func agentPayload(_ run: ChatRun, seq: Int, stream: String, data: JSONValue) -> JSONValue {
        [
            "runId": .string(run.runId), "seq": .int(seq), "stream": .string(stream), "ts": .int(GatewayHub.nowMs()),
            "sessionKey": .string(run.sessionKey), "data": data,
        ]
    }

    /// Tool events go only to the socket that sent the run, if it asked for them, without frame `seq`.
    func sendToolEvent(_ run: ChatRun, seq: Int, data: JSONValue, in gateway: isolated GatewayHub) {
        guard let owner = gateway.peers[run.ownerConnection], owner.isOpen, owner.caps.contains("tool-events") else {
            return
        }
        gateway.sendTargetedEvent(
            GatewayEventName.agent, payload: agentPayload(run, seq: seq, stream: "tool", data: data),
            to: owner.id)
    }

    /// The chat `delta` for the run's live text, if it changed since the last one: cumulative `message`
    /// in v3; in v4 `deltaText` (the new tail, or the whole text with `replace` after a non-prefix
    /// rewrite) and, unless the gateway is of the late kind, the `message` snapshot.
    ///
    /// Throttled as upstream's `emitChatDelta`: within ``TestGatewayConfiguration/deltaThrottleMs`` of
    /// the previous delta nothing is sent and the text waits; the next delta carries everything since,
    /// and `flush` (before a tool call, a text reset and the terminal event) sends what waits at once.
    func emitChatDelta(_ run: inout ChatRun, seq: Int, flush: Bool = false, in gateway: isolated GatewayHub) {
        guard run.textRevision != run.wireRevision else { return }
        let now = GatewayHub.nowMs()
        let throttle = gateway.configuration.deltaThrottleMs
        if !flush, throttle > 0, let last = run.lastDeltaAtMs, now - last < throttle { return }
        var payload: [String: JSONValue] = [
            "runId": .string(run.runId), "sessionKey": .string(run.sessionKey), "seq": .int(seq), "state": "delta",
        ]
        var includeMessage = true
        if gateway.v4 {
            if run.wireIsPrefix {
                payload["deltaText"] = .string(
                    String(decoding: run.chatText.utf8.dropFirst(run.wireUTF8Count), as: UTF8.self))
            } else {
                payload["deltaText"] = .string(run.chatText)
                payload["replace"] = true
            }
            // A text reset is announced without a snapshot, as late gateways do.
            includeMessage = gateway.configuration.v4Deltas == .withMessage && !run.chatText.isEmpty
        }
        if includeMessage {
            payload["message"] = [
                "role": "assistant", "content": [["type": "text", "text": .string(run.chatText)]],
                "timestamp": .int(now),
            ]
        }
        run.markOnWire(atMs: now)
        broadcastRunEvent(GatewayEventName.chat, payload: .object(payload), run: &run, in: gateway)
    }

    /// Broadcasts a run's `agent` or `chat` event to every socket allowed to see it, and applies the
    /// drop-after-N-run-frames, duplicate and reorder faults.
    func broadcastRunEvent(_ event: String, payload: JSONValue, run: inout ChatRun, in gateway: isolated GatewayHub) {
        let terminal = event == GatewayEventName.chat && payload["state"]?.stringValue != "delta"
        if !terminal, run.heldBack == nil, gateway.faultRandom.chance(gateway.faults.reorderRunEventsPercent) {
            run.heldBack = (event, payload)
            return
        }
        if gateway.faultRandom.chance(gateway.faults.hiddenBroadcastPercent) { gateway.broadcastHiddenEvent() }
        if terminal, gateway.faults.dropConnectionBeforeRunFinal, !run.dropFired {
            run.dropFired = true
            let audience = gateway.peers.filter { $0.value.isOpen && mayReceiveRunEvents($0.value, in: gateway) }.keys
            for id in audience.sorted() { gateway.drop(id) }
        }
        sendRunEvent(event, payload: payload, run: &run, in: gateway)
        if !terminal, gateway.faultRandom.chance(gateway.faults.duplicateRunEventsPercent) {
            sendRunEvent(event, payload: payload, run: &run, in: gateway)
        }
        if let held = run.heldBack {
            run.heldBack = nil
            sendRunEvent(held.event, payload: held.payload, run: &run, in: gateway)
        }
    }

    func sendRunEvent(_ event: String, payload: JSONValue, run: inout ChatRun, in gateway: isolated GatewayHub) {
        let reached = gateway.broadcast(event, payload: payload, include: { mayReceiveRunEvents($0, in: gateway) })
        gateway.deliverQuirkDuplicate(event, payload: payload, to: reached)
        run.broadcastFrames += 1
        if let limit = gateway.faults.dropConnectionAfterRunFrames, !run.dropFired, run.broadcastFrames >= limit {
            run.dropFired = true
            for id in reached { gateway.drop(id) }
        }
    }

    /// Who sees a run's events: everyone on v3; on v4 operators that may read.
    func mayReceiveRunEvents(_ connection: PeerSession, in gateway: isolated GatewayHub) -> Bool {
        guard gateway.v4 else { return true }
        return connection.role == .operator && ScopePolicy.allows(connection.scopes, OperatorScope.read)
    }
}
