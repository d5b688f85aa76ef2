import Observation
import OpenClawGateway
import OpenClawProtocol

/// The chat screen's state and actions, shared by the iOS app and the terminal client.
///
/// Platform-neutral (no UI imports). It owns the session's ``Transcript`` reducer and feeds it the
/// user's actions, the gateway's events and `chat.history` pages; it fetches history whenever the
/// reducer asks (a run ended, a reconnect, a seq gap), so at rest the transcript equals the gateway's.
@MainActor
@Observable
public final class ChatViewModel {
    /// The session's rows, oldest first.
    public var messages: [TranscriptEntry] { transcript.entries }
    public var composerText = ""
    /// `off`, `minimal`, `low`, `medium`, `high` … sent with each message; nil leaves the session's level.
    public var thinkingLevel: String?
    public private(set) var connectionState: ConnectionState = .disconnected(nil)
    public private(set) var currentSessionKey: String
    public private(set) var sessions: [SessionSummary] = []
    public private(set) var agentIdentity: AgentIdentity?
    /// Errors to show, each with a next step; the newest last.
    public private(set) var alerts: [ChatAlert] = []
    public private(set) var transcript: Transcript

    /// The reply still running, if any: its row carries the live text and activity steps.
    public var runningReply: TranscriptEntry? {
        guard let runId = transcript.activeRunIds.last else { return nil }
        return transcript.entries.last { $0.runId == runId && $0.role == .assistant }
    }

    public var isRunning: Bool { !transcript.activeRunIds.isEmpty }

    @ObservationIgnored private let client: ChatClient
    @ObservationIgnored private let now: @Sendable () -> Int
    @ObservationIgnored private let makeID: @Sendable () -> String
    @ObservationIgnored private var eventTask: Task<Void, Never>?
    @ObservationIgnored private var stateTask: Task<Void, Never>?
    @ObservationIgnored private var historyLimit = 200
    @ObservationIgnored private var nextAlertID = 0
    @ObservationIgnored private var historyFetchInFlight = false
    /// The socket generation whose session was last loaded.
    @ObservationIgnored private var loadedGeneration: Int?

    public init(
        client: ChatClient,
        sessionKey: String = "main",
        now: @escaping @Sendable () -> Int = { Int(UnixTime.nowMs()) },
        makeID: @escaping @Sendable () -> String = { RequestID.make() }
    ) {
        self.client = client
        self.currentSessionKey = sessionKey
        self.transcript = Transcript(sessionKey: sessionKey)
        self.now = now
        self.makeID = makeID
    }

    // MARK: - Lifecycle

    /// Subscribes to the connection, connects, and loads the session. Safe to call again after `stop()`.
    public func start() async {
        if eventTask == nil {
            let events = client.events()
            eventTask = Task { [weak self] in
                for await event in events {
                    await self?.handle(event)
                }
            }
            let states = client.connection.stateChanges()
            stateTask = Task { [weak self] in
                for await state in states { self?.connectionState = state }
            }
        }
        connectionState = await client.connection.state
        do {
            // An already open connection announced itself before this subscription: load from here.
            let session = try await client.connection.connect()
            await connectionEstablished(session)
        } catch {
            raise(error)
        }
    }

    /// Stops listening and closes the connection.
    public func stop() async {
        eventTask?.cancel()
        stateTask?.cancel()
        eventTask = nil
        stateTask = nil
        await client.connection.disconnect()
        // Nothing updates the state once the subscription is gone.
        connectionState = await client.connection.state
    }

    // MARK: - Actions

    /// Sends the composer's text; clears the composer at once.
    public func send() async {
        let text = composerText
        guard !text.allSatisfy(\.isWhitespace) else { return }
        composerText = ""
        await send(text)
    }

    /// Sends `text` and returns its run id (the row id of the message). The message appears at once.
    @discardableResult
    public func send(_ text: String) async -> String {
        let id = makeID()
        transcript.apply(.send(LocalSend(id: id, text: text, timestampMs: now())))
        await deliver(id: id, text: text)
        return id
    }

    /// Sends a failed message again, in place, with the same id (the gateway deduplicates by it).
    public func retry(messageID: String) async {
        guard let entry = transcript.entry(id: messageID), entry.role == .user,
            case .failed = entry.status
        else { return }
        transcript.apply(.send(LocalSend(id: messageID, text: entry.text, timestampMs: now())))
        await deliver(id: messageID, text: entry.text)
    }

    /// Drops a message that failed to send.
    public func discard(messageID: String) {
        transcript.apply(.discard(id: messageID))
    }

    /// Stops the running reply, if any.
    public func abort() async {
        guard let runId = transcript.activeRunIds.last else { return }
        do {
            _ = try await client.abort(sessionKey: currentSessionKey, runId: runId)
        } catch {
            raise(error)
        }
    }

    /// Follows another session; its stored history replaces the transcript.
    public func switchSession(to key: String) async {
        guard key != currentSessionKey else { return }
        currentSessionKey = key
        transcript = Transcript(sessionKey: key, sessionKeys: transcript.sessionKeys)
        historyLimit = 200
        await refreshHistory()
    }

    /// Loads more of the past: a larger page (the gateway returns the latest N, up to 1000).
    public func loadOlder() async {
        guard historyLimit < ChatHistoryParams.maximumLimit else { return }
        historyLimit = min(ChatHistoryParams.maximumLimit, historyLimit * 2)
        await refreshHistory()
    }

    /// Reloads the session list.
    public func refreshSessions() async {
        do {
            sessions = try await client.sessions().sessions
        } catch {
            raise(error)
        }
    }

    /// Fetches `chat.history` and reconciles: afterwards the transcript equals the gateway's history,
    /// plus this client's sends the gateway has not stored yet.
    ///
    /// One fetch at a time; a caller arriving meanwhile is served by the fetch in flight, which fetches
    /// again when the session or page size changed under it (a switch or `loadOlder()` during the fetch)
    /// or a new trigger arrived.
    public func refreshHistory() async {
        guard connectionState.isConnected, !historyFetchInFlight else { return }
        historyFetchInFlight = true
        defer { historyFetchInFlight = false }
        var stale: Bool
        repeat {
            let key = currentSessionKey
            let limit = historyLimit
            transcript.apply(.historyRequested)
            do {
                let page = try await client.history(sessionKey: key, limit: limit)
                stale = key != currentSessionKey || limit != historyLimit
                if key == currentSessionKey { transcript.apply(.historyLoaded(page)) }
            } catch {
                raise(error)
                return
            }
        } while (stale || transcript.pendingHistoryRefresh != nil) && connectionState.isConnected
    }

    public func dismissAlert(_ id: Int) {
        alerts.removeAll { $0.id == id }
    }

    // MARK: - Events

    private func handle(_ event: ChatStreamEvent) async {
        switch event {
        case .connected(let session):
            await connectionEstablished(session)
        case .disconnected:
            break
        case .chat(let chatEvent):
            transcript.apply(.chatEvent(chatEvent))
        case .agent(let agentEvent):
            transcript.apply(.agentEvent(agentEvent))
        case .gap:
            transcript.apply(.resyncNeeded(.sequenceGap))
        case .shutdown, .other, .ignored:
            break
        }
        if transcript.pendingHistoryRefresh != nil {
            await refreshHistory()
        }
    }

    /// A socket completed its handshake: load history, once per socket (`start()` and the `connected`
    /// event both report it). Only a reconnect is a resync: events between two sockets may be lost, but
    /// before the first socket nothing streamed, so a run sent while the first page loads keeps its text.
    private func connectionEstablished(_ session: GatewaySession) async {
        adopt(session)
        guard session.generation != loadedGeneration else { return }
        let isReconnect = loadedGeneration != nil
        loadedGeneration = session.generation
        if isReconnect { transcript.apply(.resyncNeeded(.reconnected)) }
        await refreshHistory()
        // Header data on the side, so the events that queued up during the fetch are not held back.
        Task { [weak self] in await self?.loadHeaderData() }
    }

    private func loadHeaderData() async {
        if agentIdentity == nil {
            agentIdentity = try? await client.agentIdentity()
        }
        if let page = try? await client.sessions() {
            sessions = page.sessions
        }
    }

    private func adopt(_ session: GatewaySession) {
        connectionState = .connected(session)
        let matcher = SessionKeyMatcher(defaults: session.hello.snapshot.sessionDefaults)
        if matcher != transcript.sessionKeys {
            var fresh = Transcript(sessionKey: currentSessionKey, sessionKeys: matcher)
            for entry in transcript.entries where entry.source == .local {
                fresh.apply(.send(LocalSend(id: entry.id, text: entry.text, timestampMs: entry.timestampMs ?? now())))
            }
            transcript = fresh
        }
    }

    private func deliver(id: String, text: String) async {
        do {
            let ack = try await client.send(
                sessionKey: currentSessionKey,
                message: text,
                idempotencyKey: id,
                thinking: thinkingLevel
            )
            transcript.apply(.sendAcknowledged(ack))
        } catch {
            transcript.apply(.sendFailed(id: id, reason: error.message))
            raise(error)
        }
        if transcript.pendingHistoryRefresh != nil {
            await refreshHistory()
        }
    }

    private func raise(_ error: GatewayError) {
        nextAlertID += 1
        alerts.append(ChatAlert(id: nextAlertID, error: error))
        if alerts.count > 20 { alerts.removeFirst(alerts.count - 20) }
    }
}
