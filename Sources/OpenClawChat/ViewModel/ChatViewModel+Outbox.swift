import OpenClawGateway
import OpenClawProtocol

/// Delivering the outbox: in order, once, and never lost.
///
/// A message is in the outbox (memory and store) before its first attempt and leaves it only when
/// the gateway's history shows it (or, once acked, its run has ended), it was a stop command, or the
/// user discards it. Every attempt uses the message's idempotency key, so resending after an
/// ambiguous outcome cannot double it while the gateway remembers the key; past that window the
/// message is resent only if history shows it did not arrive... which history cannot show, so it
/// becomes `unconfirmed` and waits for the user. Delivery stops at the first message that could not
/// be handed over, so messages arrive in the order they were typed.
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
                if outboxPolicy.isPastDuplicateWindow(message, nowMs: now()) {
                    await settleUncertain(message)
                    continue
                }
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
            let result = try await client.send(
                sessionKey: message.sessionKey,
                message: message.text,
                idempotencyKey: message.id,
                thinking: message.thinking,
                attachments: message.attachments
            )
            outcome = SendAttemptOutcome(result: result)
        } catch {
            outcome = SendAttemptOutcome(error: error)
            if case .rejected = outcome { raise(error) }
        }

        // The user may have discarded it meanwhile.
        guard var settled = outbox.first(where: { $0.id == message.id }) else { return outcome }
        if let state = outcome.outboxState {
            settled.state = state
            if outcome == .ambiguous, settled.uncertainSinceMs == nil {
                settled.uncertainSinceMs = sending.lastAttemptAtMs
            }
            replaceInOutbox(settled)
            let stored = settled
            await persist { [store] in try await store.update(stored) }
        } else {
            outbox.removeAll { $0.id == message.id }
            await persist { [store] in try await store.removeFromOutbox(id: message.id, gateway: message.gateway) }
        }
        guard message.sessionKey == currentSessionKey else { return outcome }
        switch outcome {
        case .handledAsCommand: transcript.apply(.sendHandledAsCommand(id: message.id))
        case .accepted(let ack): transcript.apply(.sendAcknowledged(ack))
        case .neverLeft, .ambiguous: transcript.apply(.sendQueued(id: message.id))
        case .rejected(let reason): transcript.apply(.sendFailed(id: message.id, reason: reason))
        }
        return outcome
    }

    /// Drops from the outbox the current session's messages that history now shows, and acked ones
    /// the page let go (their run ended and the page does not show them: out of its window, or hidden;
    /// the ack proved the gateway has them, so there is nothing left to deliver).
    func confirmDelivered() async {
        let confirmed = outbox.filter { message in
            guard message.sessionKey == currentSessionKey else { return false }
            let row = transcript.entry(id: message.id)
            return row?.source == .history || (message.state == .accepted && row == nil)
        }
        for message in confirmed {
            outbox.removeAll { $0.id == message.id }
            await persist { [store] in try await store.removeFromOutbox(id: message.id, gateway: message.gateway) }
        }
    }

    /// Messages accepted for other sessions are confirmed from those sessions' history.
    private func confirmOtherSessions() async {
        let keys = Set(outbox.filter { $0.state == .accepted && $0.sessionKey != currentSessionKey }.map(\.sessionKey))
        for key in keys.sorted() { await confirmSession(key) }
    }

    /// Confirms a session's accepted messages (and those in `including`) from its history, reconciled in
    /// a scratch transcript by the same rules as the visible one.
    func confirmSession(_ key: String, including ids: Set<String> = []) async {
        guard connectionState.isConnected, let page = try? await client.history(sessionKey: key, limit: 100) else {
            return
        }
        var scratch = Transcript(sessionKey: key, sessionKeys: transcript.sessionKeys)
        let waiting = outbox.filter { $0.sessionKey == key && ($0.state == .accepted || ids.contains($0.id)) }
        for message in waiting {
            scratch.apply(.send(LocalSend(id: message.id, text: message.text, timestampMs: message.createdAtMs)))
            scratch.apply(.sendAcknowledged(ChatSendAck(runId: message.id, status: .started)))
        }
        scratch.apply(.historyLoaded(page))
        let messages = scratch.storableMessages
        await persist { [store, gatewayID] in try await store.record(messages, gateway: gatewayID, sessionKey: key) }
        for message in waiting where scratch.entry(id: message.id)?.source == .history {
            outbox.removeAll { $0.id == message.id }
            await persist { [store] in try await store.removeFromOutbox(id: message.id, gateway: message.gateway) }
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
            let mayHaveLeft =
                message.state == .sending || message.state == .ambiguous || message.state == .accepted
                || message.state == .unconfirmed
            transcript.apply(
                .send(
                    LocalSend(
                        id: message.id, text: message.text, timestampMs: message.createdAtMs, isAttempt: mayHaveLeft)))
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
            case .unconfirmed:
                transcript.apply(.sendUnconfirmed(id: message.id))
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

    /// An unanswered message past the gateway's duplicate window: a resend could run it twice. History
    /// decides — shown there, it is confirmed; not shown, it is `unconfirmed` and left to the user.
    private func settleUncertain(_ message: OutboxMessage) async {
        if message.sessionKey == currentSessionKey {
            await refreshHistory()
        } else {
            await confirmSession(message.sessionKey, including: [message.id])
        }
        guard var unconfirmed = outbox.first(where: { $0.id == message.id }), unconfirmed.state.needsDelivery else {
            return
        }
        unconfirmed.state = .unconfirmed
        replaceInOutbox(unconfirmed)
        let stored = unconfirmed
        await persist { [store] in try await store.update(stored) }
        if message.sessionKey == currentSessionKey { transcript.apply(.sendUnconfirmed(id: message.id)) }
    }

    func replaceInOutbox(_ message: OutboxMessage) {
        guard let index = outbox.firstIndex(where: { $0.id == message.id }) else { return }
        outbox[index] = message
    }
}
