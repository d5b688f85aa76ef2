import OpenClawProtocol

extension ChatFeature {
    // MARK: chat.send / chat.abort

    /// `chat.send` in upstream's order (`src/gateway/server-methods/chat.ts` `"chat.send"`): params, NUL
    /// bytes, sanitising, empty text, stop commands (answered `{ok, aborted, runIds}`, no run, nothing
    /// stored), the finished-key memory (the cached `ok` or failure), a key still running (`in_flight`),
    /// then a new run acked `started` before the agent runs.
    func handleChatSend(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        var shape = ProtocolShapes.chatSendParams(v4: gateway.v4)
        if gateway.configuration.quirks.contains(.noQueueMode) { shape.fields["queueMode"] = nil }
        guard let params = gateway.validParams(request, shape: shape, from: id),
            let rawKey = params["sessionKey"]?.stringValue, let rawMessage = params["message"]?.stringValue,
            let runId = params["idempotencyKey"]?.stringValue
        else { return }
        let hasAttachments = !(params["attachments"]?.arrayValue ?? []).isEmpty
        if rawMessage.unicodeScalars.contains("\u{0}") {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "message must not contain null bytes"))
            return
        }
        let message = ChatCommandText.sanitized(rawMessage)
        if message.trimmingCharacters(in: " \t\n\r").isEmpty, !hasAttachments {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "message or attachment required"))
            return
        }
        var attachments: [AttachmentIntake.Accepted] = []
        if let list = params["attachments"]?.arrayValue, !list.isEmpty {
            let intake = AttachmentIntake(v4: gateway.v4, limits: gateway.configuration.attachmentLimits)
            switch intake.read(list, runId: runId, sessionKey: rawKey) {
            case .refused(let error):
                gateway.respond(to: id, requestId: request.id, error: error)
                return
            case .accepted(let accepted):
                attachments = accepted
            }
        }
        if ChatCommandText.isStopCommand(message) {
            let cancelled = cancelQueuedTurns(sessionKey: SessionStore.canonicalKey(rawKey), in: gateway)
            let aborted =
                cancelled
                + abortRuns(
                    matching: SessionStore.canonicalKey(rawKey), rawKey: rawKey, origin: "stop-command",
                    requester: gateway.peers[id], in: gateway)
            gateway.respond(
                to: id, requestId: request.id,
                payload: ["ok": true, "aborted": .bool(!aborted.isEmpty), "runIds": .strings(aborted) ?? []])
            return
        }
        switch idempotency.outcome(of: runId, nowMs: GatewayHub.nowMs()) {
        case .ok?:
            gateway.respond(to: id, requestId: request.id, payload: ["runId": .string(runId), "status": "ok"])
            return
        case .error(let summary)?:
            gateway.respond(
                to: id, requestId: request.id, error: ErrorShape(code: .unavailable, message: summary),
                payload: ["runId": .string(runId), "status": "error", "summary": .string(summary)])
            return
        case nil:
            break
        }
        if runs[runId] != nil || queuedTurns.contains(where: { $0.runId == runId }) {
            gateway.respond(to: id, requestId: request.id, payload: ["runId": .string(runId), "status": "in_flight"])
            return
        }
        if ChatCommandText.isResetCommand(message) { _ = gateway.sessions.resetSession(rawKey) }
        if let mode = params["queueMode"]?.stringValue.flatMap(QueueMode.init(rawValue:)),
            admitQueued(
                mode, runId: runId, rawKey: rawKey, message: message, attachments: attachments,
                requestId: request.id, from: id, in: gateway)
        {
            return
        }
        startRun(
            runId, rawKey: rawKey, message: message, attachments: attachments, requestId: request.id, from: id,
            in: gateway)
    }

    /// Starts a run; acks the `chat.send` when `requestId` is given (a queued turn was acked when queued).
    func startRun(
        _ runId: String, rawKey: String, message: String, attachments: [AttachmentIntake.Accepted],
        requestId: String?, from id: Int, in gateway: isolated GatewayHub
    ) {
        let dropPoint = gateway.faults.dropConnectionOnChatSend
        gateway.faults.dropConnectionOnChatSend = nil
        let now = GatewayHub.nowMs()
        _ = gateway.sessions.store.ensure(rawKey, newSessionId: GatewayHub.newId(), nowMs: now)
        receivedAttachments += attachments.map(\.received)
        let content =
            attachments.isEmpty ? .string(message) : AttachmentIntake.content(text: message, attachments: attachments)
        gateway.sessions.store.append(
            ["role": "user", "content": content, "timestamp": .int(now)], id: GatewayHub.entryId(), to: rawKey,
            nowMs: now)
        let script = gateway.configuration.agent.script(for: message)
        runsStarted += 1
        runs[runId] = ChatRun(
            runId: runId, rawSessionKey: rawKey, sessionKey: SessionStore.canonicalKey(rawKey), ownerConnection: id,
            ownerDevice: gateway.peers[id]?.deviceId, silent: script.silent, ordinal: runsStarted
        )
        if let requestId {
            if dropPoint == .beforeAck {
                gateway.drop(id)
            } else {
                gateway.respond(to: id, requestId: requestId, payload: ["runId": .string(runId), "status": "started"])
                if dropPoint == .afterAck { gateway.drop(id) }
            }
        }
        // Unstructured: the run outlives the `chat.send` that started it; kept in `runs`, cancelled by an abort
        // or the gateway's stop.
        runs[runId]?.task = Task { [weak gateway] in
            guard let gateway else { return }
            await RunPerformer.perform(script, runId: runId, hub: gateway)
        }
    }

    func handleChatAbort(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(request, shape: ProtocolShapes.chatAbortParams(v4: gateway.v4), from: id),
            let rawKey = params["sessionKey"]?.stringValue
        else { return }
        let requester = gateway.peers[id]
        guard let runId = params["runId"]?.stringValue else {
            let candidates = runs.values.filter { $0.sessionKey == SessionStore.canonicalKey(rawKey) }
            guard candidates.isEmpty || candidates.contains(where: { Self.mayAbort($0, by: requester) }) else {
                gateway.respond(
                    to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unauthorized"))
                return
            }
            let cancelled = cancelQueuedTurns(sessionKey: SessionStore.canonicalKey(rawKey), in: gateway)
            let aborted =
                cancelled
                + abortRuns(
                    matching: SessionStore.canonicalKey(rawKey), rawKey: rawKey, origin: "rpc",
                    requester: requester, in: gateway)
            gateway.respond(
                to: id, requestId: request.id,
                payload: ["ok": true, "aborted": .bool(!aborted.isEmpty), "runIds": .strings(aborted) ?? []])
            return
        }
        if !cancelQueuedTurns(sessionKey: SessionStore.canonicalKey(rawKey), runId: runId, in: gateway).isEmpty {
            gateway.respond(
                to: id, requestId: request.id, payload: ["ok": true, "aborted": true, "runIds": [.string(runId)]])
            return
        }
        guard let run = runs[runId] else {
            gateway.respond(to: id, requestId: request.id, payload: ["ok": true, "aborted": false, "runIds": []])
            return
        }
        guard run.rawSessionKey == rawKey else {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "runId does not match sessionKey"))
            return
        }
        guard Self.mayAbort(run, by: requester) else {
            gateway.respond(
                to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unauthorized"))
            return
        }
        abort(runId, rawKey: rawKey, origin: "rpc", in: gateway)
        gateway.respond(
            to: id, requestId: request.id, payload: ["ok": true, "aborted": true, "runIds": [.string(runId)]])
    }

    /// Aborts the session's runs `requester` may abort (all of them with `force`, for `interrupt`).
    func abortRuns(
        matching sessionKey: String, rawKey: String, origin: String,
        requester: PeerSession?, force: Bool = false, in gateway: isolated GatewayHub
    ) -> [String] {
        let ids = runs.values.filter { $0.sessionKey == sessionKey && (force || Self.mayAbort($0, by: requester)) }
            .map(\.runId).sorted()
        for runId in ids { abort(runId, rawKey: rawKey, origin: origin, in: gateway) }
        return ids
    }

    /// Stops a run: the partial text is stored and one `aborted` chat event is broadcast.
    private func abort(_ runId: String, rawKey: String, origin: String, in gateway: isolated GatewayHub) {
        guard var run = runs.removeValue(forKey: runId) else { return }
        run.task?.cancel()
        let now = GatewayHub.nowMs()
        idempotency.store(runId, .ok, nowMs: now)
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
            gateway.sessions.store.append(.object(stored), id: GatewayHub.entryId(), to: run.sessionKey, nowMs: now)
        }
        let payload = JSONValue.object(dropping: [
            ("runId", .string(runId)), ("sessionKey", .string(rawKey)), ("seq", .int(run.nextSeq())),
            ("state", "aborted"), ("stopReason", .string(origin == "rpc" ? "rpc" : "stop")),
            ("message", partial.isEmpty || run.silent ? JSONValue?.none : partialMessage),
        ])
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run, in: gateway)
        // An interrupting message starts next, ahead of the queue.
        if origin != "interrupt" { drainQueuedTurns(sessionKey: run.sessionKey, in: gateway) }
    }
}
