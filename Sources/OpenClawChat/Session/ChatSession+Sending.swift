import OpenClawGateway
import OpenClawProtocol

/// Sending: a message is shown and in the outbox before any attempt; these differ only in when its
/// delivery starts and what the caller waits for.
extension ChatSession {
    /// Sends `text` and returns its run id (the row id of the message). The message appears at once and
    /// is in the outbox before the first attempt: offline it waits there, shown as queued.
    @discardableResult
    public func send(_ text: String) async -> String {
        await enqueue(text, attachments: [])
    }

    /// Sends `text` with files. An attachment this gateway would refuse or drop (too large for its
    /// kind, an archive, a non-image on protocol 3) is refused here, before anything is queued, with an
    /// error naming the limit and the size; offline, the limits of the last connection stand (or, before
    /// any, the defaults of gateways that advertise none), and delivery checks again.
    @discardableResult
    public func send(_ text: String, attachments: [Attachment]) async throws(AttachmentError) -> String {
        let limits = await attachmentLimits()
        for attachment in attachments {
            try limits.check(attachment)
        }
        return await enqueue(text, attachments: attachments)
    }

    /// Like ``send(_:attachments:)``, but returns once the message is in the outbox (and its row shown),
    /// while its delivery goes on: for a caller that bounds its own wait. ``send(_:attachments:)`` returns
    /// only when the flush does, which a gateway that never answers `chat.send` holds for the whole
    /// request timeout — longer than a `send --timeout 5` may take.
    @discardableResult
    public func submit(_ text: String, attachments: [Attachment] = []) async throws(AttachmentError) -> String {
        let limits = await attachmentLimits()
        for attachment in attachments {
            try limits.check(attachment)
        }
        return await enqueue(text, attachments: attachments, delivery: .started)
    }

    /// Puts `text` in the outbox (stored, and shown as queued) without trying to deliver it: the next
    /// connection's first flush sends it (or, connected already, a flush started at once). For a sender that queues while it connects, so that its
    /// message is on disk before `hello-ok` and leaves right after it. Call ``loadStoredState()`` first:
    /// the stored outbox it reads must not replace the message.
    @discardableResult
    public func queue(_ text: String) async -> String {
        await enqueue(text, attachments: [], delivery: .onConnection)
    }

    /// What the gateway accepts: the current connection's limits, else the last ones known.
    public func attachmentLimits() async -> AttachmentLimits {
        if let session = await client.connection.session {
            lastAttachmentLimits = AttachmentLimits(hello: session.hello)
        }
        return lastAttachmentLimits
    }

    /// When ``enqueue(_:attachments:delivery:queueMode:)`` hands the message over.
    enum Delivery {
        /// Flushes the outbox and returns when the flush does.
        case awaited
        /// Starts a flush and returns; ``finishDelivery()`` waits for it.
        case started
        /// Leaves it to the next connection's flush.
        case onConnection
    }

    func enqueue(
        _ text: String, attachments: [Attachment], delivery: Delivery = .awaited, queueMode: QueueMode? = nil
    ) async -> String {
        let id = makeID()
        if let queueMode { messageQueueModes[id] = queueMode }
        let timestamp = now()
        // Shown at once; the attempt (if connected) comes with the flush below.
        transcript.apply(
            .send(
                LocalSend(
                    id: id, text: text, timestampMs: timestamp, isAttempt: false,
                    attachments: attachments.map(\.summary))))
        let message = outboxQueue.enqueue(
            OutboxMessage(
                id: id,
                gateway: gatewayID,
                sessionKey: currentSessionKey,
                text: text,
                thinking: thinkingLevel?.rawValue,
                createdAtMs: timestamp,
                attachments: attachments
            ))
        showDelivery(of: message)
        // Sent and awaited while connected, with nothing ahead of it: this caller runs the flush that sends
        // it at once, in this turn, and the attempt's write stores it (see `outboxUnstored`): one fsynced
        // write before `chat.send`, not two. Not for a delivery that starts later (`submit`, `queue`): a
        // message sent meanwhile would be stored before it, and a later launch would send them out of order.
        let storedByAttempt =
            delivery == .awaited && attachments.isEmpty && connectionState.isConnected
            && outboxQueue.deliveryOrder == [id] && flushSchedule.claimIfIdle()
        if storedByAttempt {
            outboxUnstored.insert(id)
        } else {
            await persist(.added(message))
        }
        switch delivery {
        case .awaited:
            if storedByAttempt { await runFlush() } else { await flushOutbox() }
        case .started:
            // Unstructured: `submit` returns before delivery; ends when the outbox is flushed (the socket's
            // end fails what is in flight).
            submittedDelivery = Task { [weak self] in await self?.flushOutbox() }
        case .onConnection:
            // Connected already: this is the flush that would have come.
            if connectionState.isConnected { submittedDelivery = Task { [weak self] in await self?.flushOutbox() } }
        }
        return id
    }

    /// Waits for the flush the last ``submit(_:attachments:)`` started, and for the connection's first
    /// one (which delivers what ``queue(_:)`` left), so the outcome of the attempt is stored before a
    /// one-shot command stops the view model.
    public func finishDelivery() async {
        await submittedDelivery?.value
        await sessionLoad?.task.value
    }
}
