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
    func loadFromStore() async {
        do {
            outboxQueue.restore(try await store.outbox(gateway: gatewayID))
        } catch {
            reportStoreFailure(error)
        }
        await restoreStoredTranscript()
        restoreOutboxRows()
        await expireOutbox()
    }

    func restoreStoredTranscript() async {
        let key = currentSessionKey
        do {
            let stored = try await store.latestMessages(gateway: gatewayID, sessionKey: key, limit: historyLimit)
            if key == currentSessionKey { transcript.apply(.restored(stored)) }
        } catch {
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
