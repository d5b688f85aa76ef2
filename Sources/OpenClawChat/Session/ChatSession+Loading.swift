import OpenClawGateway
import OpenClawProtocol

/// Loading a session when a socket opens, and fetching history when the transcript asks — each in a
/// task of its own, never on the event path: a fetch or an outbox flush waits on the network (up to
/// 35 s for one `chat.send`), and deltas must not wait behind it.
extension ChatSession {
    /// A socket completed its handshake: load history, then deliver the outbox — once per socket,
    /// though `start()` and the `connected` event both report it; the second gets the same task, so
    /// `start()` can wait for the session to be loaded and the outbox flushed while the event path
    /// does not. Only a reconnect is a resync: events between two sockets may be lost, but before the
    /// first socket nothing streamed, so a run sent while the first page loads keeps its text.
    @discardableResult
    func connectionEstablished(_ session: GatewaySession) -> Task<Void, Never> {
        adopt(session)
        if let load = sessionLoad, load.generation == session.generation { return load.task }
        let isReconnect = loadedGeneration != nil
        loadedGeneration = session.generation
        if isReconnect { transcript.apply(.resyncNeeded(.reconnected)) }
        // Unstructured: started by the event loop, which must not wait for it; ends with the page and the
        // outbox, or with the socket (its calls fail then).
        let task = Task { [weak self] in
            guard let self else { return }
            if !isReconnect, self.outbox.allSatisfy({ $0.state == .queued || !$0.state.needsDelivery }) {
                // The first connection, with nothing whose fate history must settle first: messages never
                // handed over go out while the page loads (a `send` pays one round trip before its message
                // leaves, not two). After a reconnect the page settles the resync first, as before: a page
                // asked for before a send but read after it would take the new run for one lost meanwhile.
                async let history: Void = self.refreshHistory()
                await self.flushOutbox()
                await history
            } else {
                await self.refreshHistory()
                await self.flushOutbox()
            }
            // Header data on the side, so nothing waits for it: unstructured, each ends with its one call.
            Task { [weak self] in await self?.loadHeaderData() }
            if self.followsGatewayExtras { Task { [weak self] in await self?.loadGatewayFeatures(session) } }
        }
        sessionLoad = (session.generation, task)
        return task
    }

    /// Like ``refreshHistory()``, but returns only once a page asked for after this call is applied: a
    /// fetch already under way read the gateway before (a reset, say), so it is made to go again and
    /// waited for. For showing history on request (`/history`), where a stale page would be wrong.
    public func refreshHistoryAndWait() async {
        guard connectionState.isConnected else { return }
        guard historySync.isFetching else {
            await refreshHistory()
            return
        }
        await withCheckedContinuation { waiter in
            historySync.waitForLaterPage(waiter)?.resume()
        }
    }

    /// Fetches `chat.history` and reconciles: afterwards the transcript equals the gateway's history,
    /// plus this client's sends the gateway has not stored yet.
    ///
    /// One fetch at a time; a caller arriving meanwhile is served by the fetch in flight, which fetches
    /// again when the session, page size or socket changed under it (a switch or `loadOlder()` during the
    /// fetch, a reconnect) or a new trigger arrived. `HistorySync` decides; this carries it out.
    public func refreshHistory() async {
        guard let first = wantedHistory(), historySync.start() else { return }
        var request = first
        while true {
            transcript.apply(.historyRequested)
            do {
                let page = try await readPage(for: request)
                let generation = connectionState.session?.generation
                if historySync.accepts(request, sessionKey: currentSessionKey, generation: generation) {
                    transcript.apply(.historyLoaded(showingFullMessages(in: page)))
                    await historyApplied()
                }
            } catch {
                // A connection that ended is the banner's news; the reconnect fetches again.
                switch error {
                case .connectionLost, .notConnected, .cancelled: break
                default: raise(error)
                }
                for waiter in historySync.end() { waiter.resume() }
                return
            }
            // Asked after the page is stored too: a switch during that await found this fetch in flight.
            let wanted = wantedHistory()
            let asks = transcript.pendingHistoryRefresh != nil
            switch historySync.next(after: request, wanted: wanted, transcriptAsks: asks) {
            case .fetch(let again):
                request = again
            case .done(let waiters):
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }

    /// The page for `request`: the last one extended by what was stored since, when the gateway gave a
    /// cursor for it (after a reconnect only the gap crosses the wire), else a whole tail page. A `reset`
    /// answer, or a catch-up the gateway refuses, falls back to the tail page in the same fetch.
    private func readPage(
        for request: HistorySync<CheckedContinuation<Void, Never>>.Request
    ) async throws(GatewayError) -> ChatHistoryPage {
        if case .catchUp(let cursor) = historySync.read(for: request) {
            do {
                let answer = try await client.catchUp(sessionKey: request.sessionKey, cursor: cursor)
                if let page = historySync.caughtUp(answer, for: request) { return page }
            } catch {
                switch error {
                case .connectionLost, .notConnected, .cancelled: throw error
                default: historySync.forgetBase()
                }
            }
        }
        let page = try await client.history(sessionKey: request.sessionKey, limit: request.limit)
        historySync.tailRead(page, for: request)
        return page
    }

    /// The page this view model shows now: its session at its page size, on the current socket; nil
    /// while not connected.
    private func wantedHistory() -> HistorySync<CheckedContinuation<Void, Never>>.Request? {
        guard let session = connectionState.session else { return nil }
        return .init(sessionKey: currentSessionKey, limit: historyLimit, generation: session.generation)
    }

    /// Starts a history fetch unless one is running (which fetches again by itself when a new trigger
    /// arrived during it).
    func refreshHistoryInBackground() {
        guard connectionState.isConnected, !historySync.isFetching, historyTask == nil else { return }
        // Unstructured: the event path that asks for it goes on; ends with the fetch, cancelled in `stop()`.
        historyTask = Task { [weak self] in
            // The fetch checks for new triggers before it ends, with no suspension between that check
            // and this task's end, so none is missed.
            await self?.refreshHistory()
            self?.historyTask = nil
        }
    }

    func loadHeaderData() async {
        if agentIdentity == nil {
            agentIdentity = try? await client.agentIdentity()
        }
        if let page = try? await client.sessions() {
            sessions = page.sessions
        }
    }

    /// Waits for the history fetch a finished run started, if one is under way, so what it brings is
    /// recorded in the store before a one-shot command stops the view model. Adds no request.
    public func finishHistoryFetch() async {
        // The first page may still be loading (a one-shot send does not wait for it): a fetch asked for
        // meanwhile is served by that one, which fetches again before it ends.
        if let load = sessionLoad?.task { await load.value }
        if let historyTask { await historyTask.value }
    }
}
