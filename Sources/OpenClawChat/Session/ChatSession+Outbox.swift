import OpenClawGateway
import OpenClawProtocol

/// Wiring the ``Outbox`` to the client, the store and the transcript: the outbox decides, this carries
/// its decisions out (the `chat.send`, the store write, the row) in the order it gives.
extension ChatSession {
    /// Delivers every message waiting for delivery, oldest first, while connected. One flush at a
    /// time; a call during a flush makes the whole pass run again once it ends (``FlushSchedule``), so a
    /// message queued at any point of a pass is delivered by this flush.
    func flushOutbox() async {
        guard connectionState.isConnected, flushSchedule.request() else { return }
        await runFlush()
    }

    /// The passes of a flush this caller was given (``FlushSchedule/request()`` said so).
    func runFlush() async {
        repeat {
            await flushPass()
        } while flushSchedule.passEnded(canDeliver: connectionState.isConnected)
    }

    /// One pass: deliver what waits, bring the transcript up to date if a send asked for it, arrange a
    /// retry, and confirm other sessions' accepted messages from their history.
    private func flushPass() async {
        await expireOutbox()
        delivery: for id in outboxQueue.deliveryOrder {
            guard connectionState.isConnected else { break delivery }
            switch outboxQueue.deliveryStep(for: id, nowMs: now()) {
            case nil: continue
            case .settleFromHistory: await settleUncertain(id)
            case .attempt:
                let outcome = await attempt(id)
                // In order: nothing overtakes a message that could not be handed over.
                if outcome?.holdsBackLaterMessages == true { break delivery }
            }
        }
        await storeUnattempted()
        if transcript.pendingHistoryRefresh != nil {
            await refreshHistory()
        }
        scheduleRetryIfNeeded()
        await confirmOtherSessions()
    }

    /// Writes the messages whose attempt was to store them (see `outboxUnstored`) and that this pass did
    /// not attempt, so that none is left out of the store: they wait there like any other. The sender's
    /// pass attempts its message in the turn it was sent, so this is for a pass that found the connection
    /// or the message changed first. Within the flush, so no attempt's write of the same message can
    /// overtake this one.
    private func storeUnattempted() async {
        let unstored = outboxUnstored
        outboxUnstored = []
        for message in outboxQueue.messages where unstored.contains(message.id) {
            await persist(.added(message))
        }
    }

    /// One `chat.send` of an outbox message, its outcome written back to the outbox and the row.
    private func attempt(_ id: String) async -> SendAttemptOutcome? {
        let startedAtMs = now()
        guard let message = outboxQueue.beginAttempt(id: id, nowMs: startedAtMs) else { return nil }
        // The row first, then the store: an observer never sees the row behind the outbox.
        let showsRow = message.sessionKey == currentSessionKey && transcript.entry(id: message.id) != nil
        if showsRow {
            transcript.apply(.send(LocalSend(id: message.id, text: message.text, timestampMs: message.createdAtMs)))
            showDelivery(of: message)
        }
        // Written before the frame leaves: a crash after it finds the message attempted, never unsent.
        await persist(outboxUnstored.remove(id) != nil ? .added(message) : .updated(message))

        let outcome: SendAttemptOutcome
        do {
            let result = try await client.send(
                sessionKey: message.sessionKey,
                message: message.text,
                idempotencyKey: message.id,
                thinking: message.thinking,
                attachments: message.attachments,
                queueMode: messageQueueModes[message.id] ?? queueModes[message.sessionKey]
            )
            outcome = SendAttemptOutcome(result: result)
        } catch {
            outcome = SendAttemptOutcome(error: error)
            if case .rejected = outcome { raise(error) }
        }

        // The user may have discarded it meanwhile.
        guard let change = outboxQueue.finishAttempt(id: id, outcome: outcome, startedAtMs: startedAtMs) else {
            return outcome
        }
        if message.sessionKey == currentSessionKey {
            switch change {
            case .removed:
                // A stop command: no run, and history will never show it.
                transcript.apply(.sendHandledAsCommand(id: message.id))
            case .added(let now), .updated(let now):
                // The ack also says what became of the run (finished unseen: history has it).
                if case .accepted(let ack) = outcome { transcript.apply(.sendAcknowledged(ack)) }
                showDelivery(of: now)
            }
        }
        await persist(change)
        return outcome
    }

    /// Drops from the outbox the current session's messages the transcript shows delivered.
    func confirmDelivered() async {
        await confirm(outboxQueue.delivered(inSession: currentSessionKey) { transcript.entry(id: $0) })
    }

    /// Messages accepted for other sessions are confirmed from those sessions' history.
    private func confirmOtherSessions() async {
        for key in outboxQueue.sessionsAwaitingConfirmation(besides: currentSessionKey) { await confirmSession(key) }
    }

    /// Confirms a session's accepted messages (and those in `including`) from its history, reconciled in
    /// a scratch transcript by the same rules as the visible one.
    func confirmSession(_ key: String, including ids: Set<String> = []) async {
        guard connectionState.isConnected, let page = try? await client.history(sessionKey: key, limit: 100) else {
            return
        }
        var scratch = Transcript(sessionKey: key, sessionKeys: transcript.sessionKeys)
        let waiting = outboxQueue.awaitingConfirmation(inSession: key, including: ids)
        for message in waiting {
            scratch.apply(.send(LocalSend(id: message.id, text: message.text, timestampMs: message.createdAtMs)))
            scratch.apply(.sendAcknowledged(ChatSendAck(runId: message.id, status: .started)))
        }
        scratch.apply(.historyLoaded(page))
        let messages = scratch.storableMessages
        await persist { [store, gatewayID] in try await store.record(messages, gateway: gatewayID, sessionKey: key) }
        await confirm(Set(waiting.filter { scratch.entry(id: $0.id)?.source == .history }.map(\.id)))
    }

    private func confirm(_ ids: Set<String>) async {
        for message in outboxQueue.confirm(ids) {
            messageQueueModes[message.id] = nil
            await persist(.removed(message))
        }
    }

    /// Marks messages that waited past the policy's expiry as failed; they stay for the user.
    func expireOutbox() async {
        let expired = outboxQueue.expire(nowMs: now())
        for message in expired { showDelivery(of: message) }
        for message in expired { await persist(.updated(message)) }
    }

    /// Brings the row of an outbox message of the current session to the message's outbox state: the
    /// one way a local row's delivery status is set, so the row is derived from the outbox.
    func showDelivery(of message: OutboxMessage) {
        guard message.sessionKey == currentSessionKey else { return }
        transcript.apply(message.deliveryAction(isConnected: connectionState.isConnected))
    }

    /// Every current-session row of the outbox again: whether a waiting message reads as sending or
    /// queued depends on the connection.
    func showDeliveryOfAll() {
        for message in outbox where message.sessionKey == currentSessionKey { showDelivery(of: message) }
    }

    /// Events of its run proved the gateway has this message: the outbox stops delivering it (history
    /// confirms it later), and the row follows.
    func sendProvenAccepted(id: String) {
        guard let accepted = outboxQueue.markAccepted(id: id) else { return }
        showDelivery(of: accepted)
        // Not written here: the event path does not wait for the store, and a write in the background could
        // land after the message's removal (its journal record would bring it back on recovery). The store
        // keeps the state the last awaited write gave it, which a restart reads conservatively (in flight →
        // ambiguous → resent with the same key, or settled from history); the attempt's outcome or the
        // confirmation writes next.
    }

    /// Shows the current session's outbox messages that have no row yet, in their outbox state.
    func restoreOutboxRows() {
        for message in outbox where message.sessionKey == currentSessionKey && transcript.entry(id: message.id) == nil {
            for action in message.restoredRowActions(isConnected: connectionState.isConnected) {
                transcript.apply(action)
            }
        }
    }

    /// A send that timed out on a live connection is tried again after a pause, not only at the next
    /// reconnect.
    private func scheduleRetryIfNeeded() {
        guard retryTask == nil, connectionState.isConnected, outboxQueue.hasUndelivered else { return }
        let interval = outboxQueue.policy.retryInterval
        // Unstructured: a timer of the chat, not of the send that armed it; cancelled in `stop()`.
        retryTask = Task { [weak self] in
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            self?.retryTask = nil
            await self?.flushOutbox()
        }
    }

    /// An unanswered message past the gateway's duplicate window: a resend could run it twice. History
    /// decides — shown there, it is confirmed; not shown, it is `unconfirmed` and left to the user.
    private func settleUncertain(_ id: String) async {
        guard let message = outboxQueue.message(id: id) else { return }
        if message.sessionKey == currentSessionKey {
            await refreshHistory()
        } else {
            await confirmSession(message.sessionKey, including: [message.id])
        }
        guard let unconfirmed = outboxQueue.markUnconfirmed(id: id) else { return }
        showDelivery(of: unconfirmed)
        await persist(.updated(unconfirmed))
    }

    /// The messages still waiting for delivery, split by whether the store has them (a later launch
    /// delivers them) or only this process does (the store failed, or refused their files as over its
    /// bound): what to tell someone who quits now.
    public func waitingForDelivery() async -> (stored: [OutboxMessage], inMemoryOnly: [OutboxMessage]) {
        let waiting = outbox.filter(\.state.needsDelivery)
        guard store.keepsOutboxAcrossLaunches else { return ([], waiting) }
        let storedIds = Set(((try? await store.outbox(gateway: gatewayID)) ?? []).map(\.id))
        return (waiting.filter { storedIds.contains($0.id) }, waiting.filter { !storedIds.contains($0.id) })
    }

    /// Writes an outbox change to the store; a failure is reported like any store failure, and the
    /// message stays in the outbox in memory (delivered while this process runs).
    ///
    /// A message with attachments is stored with them: the store keeps a copy of each file until the
    /// message leaves the outbox (`SQLiteChatStore` bounds their total), so a photo queued offline is
    /// delivered by a later launch, exactly once, like any message.
    func persist(_ change: OutboxChange) async {
        switch change {
        case .added(let message):
            do {
                try await store.enqueue(message)
            } catch let refusal as any OutboxRefusal {
                // Declined, not failed: said for this message, and later store failures are still reported.
                raise(
                    message: "This message is not kept on this device: \(refusal).",
                    nextStep: "It is sent while this app is open; send fewer or smaller files to have it kept.",
                    cause: .messageNotKept)
            } catch {
                reportStoreFailure(error)
            }
        case .updated(let message):
            await persist { [store] in try await store.update(message) }
        case .removed(let message):
            await persist { [store] in try await store.removeFromOutbox(id: message.id, gateway: message.gateway) }
        }
    }
}

// MARK: - What the person does with a waiting message

extension ChatSession {
    /// Sends a failed or unconfirmed message again, in place, with the same id (the gateway
    /// deduplicates by it while it remembers it). Its expiry clock and duplicate window start again:
    /// the user has just asked for it, knowing an unconfirmed one may arrive twice.
    public func retry(messageID: String) async {
        guard let entry = transcript.entry(id: messageID), entry.role == .user,
            entry.status.isFailed || entry.status == .unconfirmed
        else { return }
        let message =
            outboxQueue.message(id: messageID)
            ?? OutboxMessage(
                id: messageID, gateway: gatewayID, sessionKey: currentSessionKey, text: entry.text,
                thinking: thinkingLevel?.rawValue, createdAtMs: now()
            )
        let change = outboxQueue.requeue(message, nowMs: now())
        if let queued = outboxQueue.message(id: messageID) { showDelivery(of: queued) }
        await persist(change)
        await flushOutbox()
    }

    /// Drops a message that failed to send or still waits in the outbox.
    public func discard(messageID: String) async {
        guard transcript.apply(.discard(id: messageID)) == .applied else { return }
        messageQueueModes[messageID] = nil
        if let change = outboxQueue.discard(id: messageID) {
            await persist(change)
        } else {
            // Not in memory (a store that failed to load it): make sure it is not left on disk.
            await persist { [store, gatewayID] in try await store.removeFromOutbox(id: messageID, gateway: gatewayID) }
        }
    }

    /// Takes a message out of the outbox, for a one-shot command that has told the person it was not
    /// sent (or may not have been); see ``Outbox/withdraw(id:)``.
    public func withdrawFromOutbox(messageID: String) async {
        guard let change = outboxQueue.withdraw(id: messageID) else { return }
        await persist(change)
    }
}
