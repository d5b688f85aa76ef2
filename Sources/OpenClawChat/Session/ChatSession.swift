import OpenClawGateway
import OpenClawProtocol

/// One chat with a gateway, headless: the state and actions a chat screen needs, with no UI in it.
///
/// It owns the session's ``Transcript`` reducer and feeds it the user's actions, the gateway's events
/// and `chat.history` pages; it fetches history whenever the reducer asks (a run ended, a reconnect, a
/// seq gap), so at rest the transcript equals the gateway's.
///
/// It runs on a ``ChatStore``: the stored transcript is shown at once on launch, every history page is
/// recorded, and every message goes through the outbox (an ``Outbox``), so what the
/// user typed survives a lost connection, a crash or a kill, and is delivered once.
///
/// Consumers learn what changed from ``changes(of:)``, typed by kind, and read the current state: the
/// terminal and the one-shot commands do so directly; ``ChatViewModel`` adapts it for SwiftUI.
@MainActor
public final class ChatSession {
    /// The session's rows, oldest first.
    public var messages: [TranscriptEntry] { transcript.entries }
    /// Sent with each message; nil leaves the session's own level.
    public var thinkingLevel: ThinkingLevel? {
        didSet { changed(.settings) }
    }
    /// Whether each socket also subscribes to live usage and loads the gateway's commands: what a screen
    /// shows over time. A one-shot command (one message, one reply) turns it off and makes two requests
    /// fewer.
    public var followsGatewayExtras = true
    /// The queue mode chosen for each session (``setQueueMode(_:)``), sent with its messages.
    public internal(set) var queueModes: [String: QueueMode] = [:] {
        didSet { changed(.settings) }
    }
    /// One message's own mode (``steer(_:)``), by message id, until history confirms it. Kept in memory
    /// only: a message resent after a relaunch goes with its session's mode.
    var messageQueueModes: [String: QueueMode] = [:]
    /// The connection's state, followed from ``start(waitingForSessionLoad:)`` on: for a status line or a banner.
    public internal(set) var connectionState: ConnectionState = .disconnected(nil) {
        didSet {
            changed(.connection)
            // A waiting message reads as sending only while a connection can carry it.
            if oldValue.isConnected != connectionState.isConnected { showDeliveryOfAll() }
        }
    }
    /// The session shown; ``switchSession(to:)`` changes it.
    public private(set) var currentSessionKey: String {
        didSet { changed(.currentSession) }
    }
    /// The gateway's sessions, loaded after connecting and by ``refreshSessions()``.
    public internal(set) var sessions: [SessionSummary] = [] {
        didSet { changed(.sessions) }
    }
    /// The agent's name and avatar for a header, loaded after connecting.
    public internal(set) var agentIdentity: AgentIdentity? {
        didSet { changed(.agent) }
    }
    /// Each session's usage as `sessions.changed` last reported it, by canonical session key
    /// (``usage`` is the current session's).
    public internal(set) var sessionUsage: [String: SessionUsage] = [:] {
        didSet { changed(.usage) }
    }
    /// The gateway's own slash commands (`commands.list`), loaded after connecting; empty when the
    /// gateway has no such method (then `/help` and completion offer only this client's commands).
    public internal(set) var gatewayCommands: [GatewaySlashCommand] = [] {
        didSet { changed(.commands) }
    }
    /// Whether the command list was asked for and answered once (or this gateway has none to ask for):
    /// `/help` typed just after connecting waits for it rather than list none.
    package internal(set) var gatewayCommandsSettled = false
    /// Errors to show, each with a next step; the newest last.
    public var alerts: [ChatAlert] { alertLog.alerts }
    /// Behind ``alerts``: a value, so ids and dismissal are tested without a connection.
    var alertLog = AlertLog() {
        didSet { changed(.alerts) }
    }
    /// The reducer behind ``messages``, for what the rows alone do not say (``Transcript/activeRunIds``,
    /// ``Transcript/hasOlderHistory``).
    public internal(set) var transcript: Transcript {
        didSet { changed(.transcript) }
    }
    /// Messages of this gateway not yet confirmed by history (every session), oldest first.
    public var outbox: [OutboxMessage] { outboxQueue.messages }
    /// The outbox's state and rules; this session carries out what it decides.
    var outboxQueue: Outbox {
        didSet { changed(.outbox) }
    }
    let changeHub = ChatChangeHub()
    /// Told of every change in the turn it happens, before any stream: an adapter's views must not
    /// draw a state its observation has not been told about (see ``ChatViewModel``).
    var changeObserver: (@MainActor (ChatChanges) -> Void)?

    /// The reply still running, if any: its row carries the live text and activity steps.
    public var runningReply: TranscriptEntry? {
        guard let runId = transcript.activeRunIds.last else { return nil }
        return transcript.entries.last { $0.runId == runId && $0.role == .assistant }
    }

    /// Whether a run may still produce text: what enables a stop button.
    public var isRunning: Bool { !transcript.activeRunIds.isEmpty }

    let client: ChatClient
    let store: any ChatStore
    /// Scopes everything stored: two gateways never share transcripts or an outbox.
    public let gatewayID: String
    let now: @Sendable () -> Int
    let makeID: @Sendable () -> String
    /// Takes the connection's events in batches, decodes and applies them on the main actor.
    ///
    /// Waking the main thread costs more than reducing a delta: one wake per event capped a fast
    /// stream far below what the reducer can do. The task takes everything waiting (a slice at most) per
    /// wake; with the subscription's own bound, a main actor that falls behind holds the socket's
    /// reading back. An earlier relay task decoded off the main actor and posted to an inbox: it saved
    /// the main actor about a microsecond per delta and cost a thread hand-off per batch.
    private var eventTask: Task<Void, Never>?
    /// Events applied per main-actor turn when a whole slice was waiting (the main actor is behind a
    /// burst); fewer waiting are applied one per turn, so observers see every state.
    static let catchUpSlice = 64
    private var stateTask: Task<Void, Never>?
    var historyLimit = 200
    /// Messages fetched whole with `chat.message.get`, with their `__openclaw.id`, newest last and at most
    /// `fullMessageLimit`: each page read shows these instead of the page's shortened copies
    /// (``showAll(_:)``).
    var fullMessages: [(id: String, message: ChatMessage)] = []
    /// Which history fetch is under way and who waits for a later page; this view model does the fetches.
    var historySync = HistorySync<CheckedContinuation<Void, Never>>()
    /// A history fetch started from the event path (it never waits for the network itself).
    var historyTask: Task<Void, Never>?
    /// The socket generation whose session was last loaded.
    var loadedGeneration: Int?
    /// The load of the latest socket's session, for a second reporter of the same socket to wait on.
    var sessionLoad: (generation: Int, task: Task<Void, Never>)?
    var gaps = SequenceGapTracker()
    /// Painting from the store, started by the first `start()` or `loadStoredState()`; later calls wait for it.
    var storeLoad: Task<Void, Never>?
    var storeFailureReported = false
    /// Whether an outbox flush is running, and whether another pass must follow it.
    var flushSchedule = FlushSchedule()
    var retryTask: Task<Void, Never>?
    /// The flush ``submit(_:attachments:)`` started, for ``finishDelivery()``.
    var submittedDelivery: Task<Void, Never>?
    /// Messages sent (and awaited) while connected with nothing ahead of them, not yet in the store: the
    /// flush their sender runs stores each with its first attempt (state `sending`, one write instead of
    /// two), or at the end of its pass when it did not attempt it. In no store meanwhile, as on no wire.
    var outboxUnstored: Set<String> = []
    /// The attachment limits of the last connection (before any: ``AttachmentLimits/notNegotiated``).
    var lastAttachmentLimits = AttachmentLimits.notNegotiated

    /// Makes a session for one connection. Nothing happens until ``start(waitingForSessionLoad:)``.
    ///
    /// - Parameters:
    ///   - client: the chat calls and events of the connection to use.
    ///   - sessionKey: the session to show first (`main`, the gateway's main session, by default).
    ///   - store: where transcripts and the outbox live; the default forgets them at exit.
    ///   - gatewayID: the scope of what is stored; by default the connection URL's `storageIdentity`
    ///     (scheme, host, port and path, without the query).
    ///   - outboxPolicy: how many messages may wait, and for how long.
    ///   - now: the clock, in epoch milliseconds; tests pass a fixed one.
    ///   - makeID: makes each message's idempotency key (also its row id and run id); random UUIDs by
    ///     default, fixed ones in tests.
    public init(
        client: ChatClient,
        sessionKey: String = "main",
        store: any ChatStore = InMemoryChatStore(),
        gatewayID: String? = nil,
        outboxPolicy: OutboxPolicy = OutboxPolicy(),
        now: @escaping @Sendable () -> Int = { Int(UnixTime.nowMs()) },
        makeID: @escaping @Sendable () -> String = { RequestID.make() }
    ) {
        self.client = client
        self.currentSessionKey = sessionKey
        self.transcript = Transcript(sessionKey: sessionKey)
        self.store = store
        self.gatewayID = gatewayID ?? client.connection.configuration.url.storageIdentity
        self.outboxQueue = Outbox(policy: outboxPolicy)
        self.now = now
        self.makeID = makeID
    }

    deinit {
        changeHub.finish()
    }

    // MARK: - Changes

    /// What changes from now on, among `kinds`: each element holds every kind that changed since the
    /// previous element was taken. Read the session's state when one arrives; the stream ends when the
    /// session is gone.
    public func changes(of kinds: ChatChanges = .all) -> ChatChangeStream {
        changeHub.subscribe(to: kinds)
    }

    func changed(_ kinds: ChatChanges) {
        changeObserver?(kinds)
        changeHub.publish(kinds)
    }

    // MARK: - Lifecycle

    /// Shows the stored transcript and outbox, subscribes to the connection, connects, loads the
    /// session and delivers the outbox. Safe to call again after `stop()`.
    ///
    /// - Parameter waitingForSessionLoad: false returns once connected, while the history page loads:
    ///   a one-shot sender's message then leaves at once instead of after a round trip it does not need.
    public func start(waitingForSessionLoad: Bool = true) async {
        await loadStoredState()
        if eventTask == nil {
            let events = client.events()
            // Unstructured: `start()` returns to an owner that keeps the chat; `run()` makes it a child of the
            // owner's task, `stop()` cancels it.
            eventTask = Task { [weak self] in
                var iterator = events.makeAsyncIterator()
                while let batch = await iterator.next(upTo: Self.catchUpSlice) {
                    for event in batch {
                        // Stopped: what is left of the batch is not this view model's any more.
                        guard !Task.isCancelled else { return }
                        self?.handle(event)
                        // Each event in its own main-actor turn, so observers see every state (a rewrite
                        // the next event replaces at once) — unless the main actor has fallen behind a
                        // burst (a whole slice was waiting): then it catches up a slice per turn.
                        if batch.count < Self.catchUpSlice { await Task.yield() }
                    }
                    if batch.count == Self.catchUpSlice { await Task.yield() }
                }
            }
            let states = client.connection.stateChanges()
            // Unstructured, with the event loop: ends when the connection's states do; cancelled in `stop()`.
            stateTask = Task { [weak self] in
                for await state in states { self?.connectionState = state }
            }
        }
        // With a reconnect policy a first attempt that fails for a passing reason keeps trying: the
        // stored transcript is on screen and new messages queue until the gateway is reachable.
        await client.connection.keepConnected()
        let state = await client.connection.state
        connectionState = state
        switch state {
        case .connected(let session):
            // An already open connection announced itself before this subscription: load from here.
            let load = connectionEstablished(session)
            if waitingForSessionLoad { await load.value }
        case .failed(let error):
            raise(error)
        case .disconnected, .connecting, .reconnecting:
            break
        }
    }

    /// Starts (as ``start(waitingForSessionLoad:)``) and runs until the calling task is cancelled, then
    /// stops: for an owner whose task is the chat's lifetime (a SwiftUI `.task`, a command's task group),
    /// so that the chat cannot outlive it.
    public func run() async {
        await start()
        guard let loop = eventTask else { return }
        await loop.endsWithCaller()
        // Not a chat started again after a `stop()` meanwhile: that one is its starter's.
        if eventTask == loop { await stop() }
    }

    /// Stops listening and closes the connection.
    public func stop() async {
        eventTask?.cancel()
        stateTask?.cancel()
        retryTask?.cancel()
        historyTask?.cancel()
        eventTask = nil
        stateTask = nil
        retryTask = nil
        historyTask = nil
        await client.connection.disconnect()
        // Nothing updates the state once the subscription is gone.
        connectionState = await client.connection.state
    }

    // MARK: - Actions

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
        await restoreStoredTranscript()
        restoreOutboxRows()
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
}
