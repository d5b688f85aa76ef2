import OpenClawGateway
import OpenClawProtocol

/// The gateway's events, applied as they come: the reducer's actions, its effects carried out, and a
/// new socket's session adopted.
extension ChatSession {
    /// One event, handled without waiting for the network: history, outbox and header loads run in
    /// tasks of their own, so deltas keep flowing while they do.
    func handle(_ event: ChatStreamEvent) {
        switch event {
        case .connected(let session):
            gaps.reset()
            _ = connectionEstablished(session)
        case .disconnected:
            break
        case .chat(let chatEvent):
            reduce(.chatEvent(chatEvent))
            gaps.runEvent(runActive: isRunning)
        case .agent(let agentEvent):
            reduce(.agentEvent(agentEvent))
            gaps.runEvent(runActive: isRunning)
        case .gap:
            let version = connectionState.session?.protocolVersion
            if gaps.gap(protocolVersion: version, runActive: isRunning) == .resyncNow {
                reduce(.resyncNeeded(.sequenceGap))
            }
        case .other(let frame) where frame.event == GatewayEventName.tick:
            if gaps.tick() { reduce(.resyncNeeded(.sequenceGap)) }
        case .other(let frame) where frame.event == GatewayEventName.sessionsChanged:
            applySessionsChanged(frame.payload)
        case .shutdown, .other, .ignored:
            break
        }
    }

    /// Applies `action` to the transcript and carries out what the reducer asks for.
    func reduce(_ action: TranscriptAction) {
        for effect in transcript.reduce(action) {
            switch effect {
            case .fetchHistory: refreshHistoryInBackground()
            case .sendAccepted(let id): sendProvenAccepted(id: id)
            }
        }
    }

    func adopt(_ session: GatewaySession) {
        connectionState = .connected(session)
        let matcher = SessionKeyMatcher(defaults: session.hello.snapshot.sessionDefaults)
        if matcher != transcript.sessionKeys {
            var fresh = Transcript(sessionKey: currentSessionKey, sessionKeys: matcher)
            fresh.apply(.restored(transcript.storableMessages))
            for entry in transcript.entries
            where entry.source == .local && !outboxQueue.contains(id: entry.id) {
                fresh.apply(.send(LocalSend(id: entry.id, text: entry.text, timestampMs: entry.timestampMs ?? now())))
            }
            transcript = fresh
            restoreOutboxRows()
        }
    }
}
