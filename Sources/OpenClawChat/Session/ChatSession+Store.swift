import OpenClawGateway
import OpenClawProtocol

/// The store side of the view model: painting from it before the gateway answers, recording every
/// applied page, searching it offline. A failing store is reported once and the chat goes on from memory.
extension ChatSession {
    /// Stored messages of this gateway (every session) matching `query`, best first. Works offline.
    public func search(_ query: String, limit: Int = 20) async -> [SearchHit] {
        do {
            return try await store.search(query, gateway: gatewayID, limit: limit)
        } catch {
            reportStoreFailure(error)
            return []
        }
    }

    /// Paints the stored transcript and restores the outbox, once: what `start()` does first. A caller that
    /// connects itself (a one-shot sender, whose handshake starts before anything else) calls it while the
    /// handshake runs, so that `start()` finds it done instead of reading the store after `hello-ok`.
    public func loadStoredState() async {
        if let storeLoad { return await storeLoad.value }
        // Unstructured so that a second caller waits for the same read; ends with the read.
        let load = Task { await self.loadFromStore() }
        storeLoad = load
        await load.value
    }

    /// Paints the stored transcript and the outbox before the gateway answers.
    ///
    /// The two reads run at once, each on a reader of its own, and are applied in the order they always
    /// were (the outbox, then the transcript, then the outbox's rows): `send` waits for this before its
    /// message goes, and one read after the other was most of that wait.
    func loadFromStore() async {
        let key = currentSessionKey
        async let stored = Self.latestMessages(in: store, gateway: gatewayID, sessionKey: key, limit: historyLimit)
        do {
            outboxQueue.restore(try await store.outbox(gateway: gatewayID))
        } catch {
            reportStoreFailure(error)
        }
        applyRestored(await stored, sessionKey: key)
        restoreOutboxRows()
        await expireOutbox()
    }

    func restoreStoredTranscript() async {
        let key = currentSessionKey
        applyRestored(
            await Self.latestMessages(in: store, gateway: gatewayID, sessionKey: key, limit: historyLimit),
            sessionKey: key)
    }

    /// The latest stored messages of a session, read off the main actor.
    private nonisolated static func latestMessages(
        in store: any ChatStore, gateway: String, sessionKey: String, limit: Int
    ) async -> Result<[StoredMessage], any Error> {
        do {
            return .success(try await store.latestMessages(gateway: gateway, sessionKey: sessionKey, limit: limit))
        } catch {
            return .failure(error)
        }
    }

    /// Paints what was read for `sessionKey`, unless the chat has moved to another session meanwhile.
    private func applyRestored(_ read: Result<[StoredMessage], any Error>, sessionKey: String) {
        switch read {
        case .success(let stored):
            if sessionKey == currentSessionKey { transcript.apply(.restored(stored)) }
        case .failure(let error):
            reportStoreFailure(error)
        }
    }

    /// Records the page just applied, and lets the outbox drop what it confirmed.
    func historyApplied() async {
        let key = currentSessionKey
        let messages = transcript.storableMessages
        await persist { [store, gatewayID] in try await store.record(messages, gateway: gatewayID, sessionKey: key) }
        await confirmDelivered()
    }

    /// Runs a store operation; a failure is reported once and the chat goes on from memory.
    func persist(_ operation: @escaping @Sendable () async throws -> Void) async {
        do {
            try await operation()
        } catch {
            reportStoreFailure(error)
        }
    }

    func reportStoreFailure(_ error: any Error) {
        guard !storeFailureReported else { return }
        storeFailureReported = true
        raise(
            message: "The conversation could not be saved on this device (\(error)).",
            nextStep: "Check free disk space and the state directory; until then messages are kept in memory only.",
            cause: .storeFailed
        )
    }
}
