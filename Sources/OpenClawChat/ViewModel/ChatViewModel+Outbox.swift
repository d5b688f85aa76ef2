import OpenClawGateway
import OpenClawProtocol

/// Delivering the outbox: in order, once, and never lost.
///
/// A message is in the outbox (memory and store) before its first attempt and leaves it only when
/// the gateway's history shows it, or the user discards it. Every attempt uses the message's
/// idempotency key, so resending after an ambiguous outcome cannot double it: the gateway
/// deduplicates. Delivery stops at the first message that could not be handed over, so messages
/// arrive in the order they were typed.
extension ChatViewModel {
    /// Delivers every message waiting for delivery, oldest first, while connected. One flush at a
    /// time; a call during a flush makes it run again.
    func flushOutbox() async {
        guard connectionState.isConnected else { return }
        guard !flushInFlight else {
            flushRequested = true
            return
        }
        flushInFlight = true
        defer { flushInFlight = false }
        repeat {
            flushRequested = false
            await expireOutbox()
            for id in outbox.filter(\.state.needsDelivery).map(\.id) {
                guard connectionState.isConnected else { break }
                guard let message = outbox.first(where: { $0.id == id }), message.state.needsDelivery else { continue }
                let outcome = await attempt(message)
                if outcome == .neverLeft || outcome == .ambiguous { break }
            }
        } while flushRequested && connectionState.isConnected
        if transcript.pendingHistoryRefresh != nil {
            await refreshHistory()
        }
        scheduleRetryIfNeeded()
        await confirmOtherSessions()
    }

    /// One `chat.send` of an outbox message, its outcome written back to the outbox and the row.
    private func attempt(_ message: OutboxMessage) async -> SendAttemptOutcome {
        var sending = message
        sending.state = .sending
        sending.attempts += 1
        sending.lastAttemptAtMs = now()
        replaceInOutbox(sending)
        await persist { [store, sending] in try await store.update(sending) }
        let showsRow = message.sessionKey == currentSessionKey && transcript.entry(id: message.id) != nil
        if showsRow {
            transcript.apply(.send(LocalSend(id: message.id, text: message.text, timestampMs: message.createdAtMs)))
        }

        let outcome: SendAttemptOutcome
        do {
            let ack = try await client.send(
                sessionKey: message.sessionKey,
                message: message.text,
                idempotencyKey: message.id,
                thinking: message.thinking
            )
            outcome = SendAttemptOutcome(ack: ack)
        } catch {
            outcome = SendAttemptOutcome(error: error)
            if case .rejected = outcome { raise(error) }
        }

        // The user may have discarded it meanwhile.
        guard var settled = outbox.first(where: { $0.id == message.id }) else { return outcome }
        settled.state = outcome.outboxState
        replaceInOutbox(settled)
        let stored = settled
        await persist { [store] in try await store.update(stored) }
        guard message.sessionKey == currentSessionKey else { return outcome }
        switch outcome {
        case .accepted(let ack): transcript.apply(.sendAcknowledged(ack))
        case .neverLeft, .ambiguous: transcript.apply(.sendQueued(id: message.id))
        case .rejected(let reason): transcript.apply(.sendFailed(id: message.id, reason: reason))
        }
        return outcome
    }

    /// Drops from the outbox the current session's messages that history now shows.
    func confirmDelivered() async {
        let confirmed = outbox.filter { message in
            message.sessionKey == currentSessionKey && transcript.entry(id: message.id)?.source == .history
        }
        for message in confirmed {
            outbox.removeAll { $0.id == message.id }
            await persist { [store] in try await store.removeFromOutbox(id: message.id, gateway: message.gateway) }
        }
    }

    /// Messages accepted for other sessions are confirmed from those sessions' history, reconciled in
    /// a scratch transcript by the same rules as the visible one.
    private func confirmOtherSessions() async {
        let keys = Set(outbox.filter { $0.state == .accepted && $0.sessionKey != currentSessionKey }.map(\.sessionKey))
        for key in keys.sorted() {
            guard connectionState.isConnected, let page = try? await client.history(sessionKey: key, limit: 100) else {
                continue
            }
            var scratch = Transcript(sessionKey: key, sessionKeys: transcript.sessionKeys)
            let waiting = outbox.filter { $0.sessionKey == key && $0.state == .accepted }
            for message in waiting {
                scratch.apply(.send(LocalSend(id: message.id, text: message.text, timestampMs: message.createdAtMs)))
                scratch.apply(.sendAcknowledged(ChatSendAck(runId: message.id, status: .started)))
            }
            scratch.apply(.historyLoaded(page))
            let messages = scratch.storableMessages
            await persist { [store, gatewayID] in try await store.record(messages, gateway: gatewayID, sessionKey: key)
            }
            for message in waiting where scratch.entry(id: message.id)?.source == .history {
                outbox.removeAll { $0.id == message.id }
                await persist { [store] in try await store.removeFromOutbox(id: message.id, gateway: message.gateway) }
            }
        }
    }

    /// Marks messages that waited past the policy's expiry as failed; they stay for the user.
    func expireOutbox() async {
        let nowMs = now()
        for message in outbox where outboxPolicy.hasExpired(message, nowMs: nowMs) {
            var expired = message
            expired.state = .failed(reason: outboxPolicy.expiryReason)
            replaceInOutbox(expired)
            let stored = expired
            await persist { [store] in try await store.update(stored) }
            if message.sessionKey == currentSessionKey {
                transcript.apply(.sendFailed(id: message.id, reason: outboxPolicy.expiryReason))
            }
        }
    }

    /// Shows the current session's outbox messages that have no row yet, in their outbox state.
    func restoreOutboxRows() {
        for message in outbox where message.sessionKey == currentSessionKey && transcript.entry(id: message.id) == nil {
            transcript.apply(.send(LocalSend(id: message.id, text: message.text, timestampMs: message.createdAtMs)))
            switch message.state {
            case .queued, .ambiguous:
                transcript.apply(.sendQueued(id: message.id))
            case .sending:
                if !connectionState.isConnected { transcript.apply(.sendQueued(id: message.id)) }
            case .accepted:
                // Accepted earlier, its run's events unseen: history will show the message and the reply.
                transcript.apply(.sendAcknowledged(ChatSendAck(runId: message.id, status: .ok)))
            case .failed(let reason):
                transcript.apply(.sendFailed(id: message.id, reason: reason))
            }
        }
    }

    /// A send that timed out on a live connection is tried again after a pause, not only at the next
    /// reconnect.
    private func scheduleRetryIfNeeded() {
        guard retryTask == nil, connectionState.isConnected, outbox.contains(where: \.state.needsDelivery) else {
            return
        }
        let interval = outboxPolicy.retryInterval
        retryTask = Task { [weak self] in
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            self?.retryTask = nil
            await self?.flushOutbox()
        }
    }

    private func replaceInOutbox(_ message: OutboxMessage) {
        guard let index = outbox.firstIndex(where: { $0.id == message.id }) else { return }
        outbox[index] = message
    }
}
