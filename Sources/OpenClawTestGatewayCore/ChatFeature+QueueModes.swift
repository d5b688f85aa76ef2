import OpenClawProtocol

/// `chat.send` `queueMode` on a busy session, with the observable semantics upstream documents
/// (`docs/gateway/protocol.md` `chat.send`; `docs/concepts/queue.md` "Queue modes"):
///
/// - `steer`: the message joins the running turn — stored at once, no new run; its own run id ends
///   with a `final` without a message (the dispatch it started produced no reply of its own).
/// - `followup`: queued; each runs as its own turn, under its own run id, once the session is idle.
/// - `collect`: queued; the waiting messages run as one turn under the first one's run id, the others
///   end with a message-free `final` when it starts.
/// - `interrupt`: the running turns are aborted, then the message starts a turn.
///
/// Every send is acked `{runId, status: "started"}` as a new run is. An idle session starts the turn
/// whatever the mode.
extension ChatFeature {
    /// Handles a send on a busy session according to `mode`; false when it should start a run as usual
    /// (idle session, or `interrupt` after aborting).
    func admitQueued(
        _ mode: QueueMode, runId: String, rawKey: String, message: String,
        attachments: [AttachmentIntake.Accepted], requestId: String, from id: Int, in gateway: isolated GatewayHub
    ) -> Bool {
        let sessionKey = SessionStore.canonicalKey(rawKey)
        let busy =
            runs.values.contains { $0.sessionKey == sessionKey }
            || queuedTurns.contains { $0.sessionKey == sessionKey }
        guard busy else { return false }
        switch mode {
        case .interrupt:
            _ = abortRuns(
                matching: sessionKey, rawKey: rawKey, origin: "interrupt", requester: nil, force: true, in: gateway)
            return false
        case .steer:
            guard runs.values.contains(where: { $0.sessionKey == sessionKey }) else { return false }
            let now = GatewayHub.nowMs()
            gateway.sessions.store.append(
                ["role": "user", "content": .string(message), "timestamp": .int(now)], id: GatewayHub.entryId(),
                to: rawKey, nowMs: now)
            idempotency.store(runId, .ok, nowMs: now)
            gateway.respond(to: id, requestId: requestId, payload: ["runId": .string(runId), "status": "started"])
            endWithoutReply(runId, rawKey: rawKey, owner: id, in: gateway)
            return true
        case .followup, .collect:
            queuedTurns.append(
                QueuedTurn(
                    runId: runId, rawSessionKey: rawKey, sessionKey: sessionKey, message: message,
                    attachments: attachments, collects: mode == .collect, ownerConnection: id,
                    ownerDevice: gateway.peers[id]?.deviceId))
            gateway.respond(to: id, requestId: requestId, payload: ["runId": .string(runId), "status": "started"])
            return true
        }
    }

    /// Starts the session's next queued turn once none of its runs is left.
    func drainQueuedTurns(sessionKey: String, in gateway: isolated GatewayHub) {
        guard !runs.values.contains(where: { $0.sessionKey == sessionKey }),
            let index = queuedTurns.firstIndex(where: { $0.sessionKey == sessionKey })
        else { return }
        let first = queuedTurns.remove(at: index)
        var message = first.message
        if first.collects {
            let folded = queuedTurns.filter { $0.sessionKey == sessionKey && $0.collects }
            queuedTurns.removeAll { $0.sessionKey == sessionKey && $0.collects }
            message = ([first] + folded).map(\.message).joined(separator: "\n\n")
            for turn in folded {
                endWithoutReply(turn.runId, rawKey: turn.rawSessionKey, owner: turn.ownerConnection, in: gateway)
            }
        }
        startRun(
            first.runId, rawKey: first.rawSessionKey, message: message, attachments: first.attachments,
            requestId: nil, from: first.ownerConnection, in: gateway)
    }

    /// Cancels queued turns of `sessionKey` (all, or the one with `runId`): each ends `aborted`.
    func cancelQueuedTurns(sessionKey: String, runId: String? = nil, in gateway: isolated GatewayHub) -> [String] {
        let cancelled = queuedTurns.filter { $0.sessionKey == sessionKey && (runId == nil || $0.runId == runId) }
        queuedTurns.removeAll { turn in cancelled.contains { $0.runId == turn.runId } }
        for turn in cancelled {
            idempotency.store(turn.runId, .ok, nowMs: GatewayHub.nowMs())
            var run = placeholderRun(turn.runId, rawKey: turn.rawSessionKey, owner: turn.ownerConnection)
            let payload: JSONValue = [
                "runId": .string(turn.runId), "sessionKey": .string(turn.rawSessionKey), "seq": 1, "state": "aborted",
                "stopReason": "rpc",
            ]
            broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run, in: gateway)
        }
        return cancelled.map(\.runId)
    }

    /// A run id that produced no reply of its own ends with a `final` that has no message.
    private func endWithoutReply(_ runId: String, rawKey: String, owner: Int, in gateway: isolated GatewayHub) {
        idempotency.store(runId, .ok, nowMs: GatewayHub.nowMs())
        var run = placeholderRun(runId, rawKey: rawKey, owner: owner)
        let payload: JSONValue = [
            "runId": .string(runId), "sessionKey": .string(SessionStore.canonicalKey(rawKey)), "seq": 1,
            "state": "final",
        ]
        broadcastRunEvent(GatewayEventName.chat, payload: payload, run: &run, in: gateway)
    }

    private func placeholderRun(_ runId: String, rawKey: String, owner: Int) -> ChatRun {
        ChatRun(
            runId: runId, rawSessionKey: rawKey, sessionKey: SessionStore.canonicalKey(rawKey),
            ownerConnection: owner, ownerDevice: nil, silent: true, ordinal: 0)
    }
}
