import Observation
import OpenClawGateway
import OpenClawProtocol

/// A ``ChatSession`` for SwiftUI: its state as `@Observable` properties, the composer's text, and the
/// session's actions.
///
/// Everything about the chat lives in ``session``; this only tells SwiftUI which of its reads a change
/// touches. Each kind of ``ChatChanges`` has a counter here that the session bumps in the same turn as
/// the change, and each property reads the counters of the kinds it depends on.
@MainActor
@Observable
public final class ChatViewModel {
    /// The headless session this adapts: the terminal and tests use it directly.
    @ObservationIgnored public let session: ChatSession
    /// The text being typed; ``send()`` sends it and clears it.
    public var composerText = ""

    private var transcriptChanges = 0
    private var connectionChanges = 0
    private var currentSessionChanges = 0
    private var sessionListChanges = 0
    private var agentChanges = 0
    private var usageChanges = 0
    private var commandChanges = 0
    private var alertChanges = 0
    private var outboxChanges = 0
    private var settingChanges = 0

    /// Adapts `session`, which should not be adapted twice: only the latest adapter is told of changes.
    public init(session: ChatSession) {
        self.session = session
        session.changeObserver = { [weak self] changes in self?.bump(changes) }
    }

    /// Makes a session (see ``ChatSession/init(client:sessionKey:store:gatewayID:outboxPolicy:now:makeID:)``)
    /// and adapts it.
    public convenience init(
        client: ChatClient,
        sessionKey: String = "main",
        store: any ChatStore = InMemoryChatStore(),
        gatewayID: String? = nil,
        outboxPolicy: OutboxPolicy = OutboxPolicy()
    ) {
        self.init(
            session: ChatSession(
                client: client, sessionKey: sessionKey, store: store, gatewayID: gatewayID,
                outboxPolicy: outboxPolicy))
    }

    private func bump(_ changes: ChatChanges) {
        if changes.contains(.transcript) { transcriptChanges &+= 1 }
        if changes.contains(.connection) { connectionChanges &+= 1 }
        if changes.contains(.currentSession) { currentSessionChanges &+= 1 }
        if changes.contains(.sessions) { sessionListChanges &+= 1 }
        if changes.contains(.agent) { agentChanges &+= 1 }
        if changes.contains(.usage) { usageChanges &+= 1 }
        if changes.contains(.commands) { commandChanges &+= 1 }
        if changes.contains(.alerts) { alertChanges &+= 1 }
        if changes.contains(.outbox) { outboxChanges &+= 1 }
        if changes.contains(.settings) { settingChanges &+= 1 }
    }

    // MARK: - State

    /// See ``ChatSession/messages``.
    public var messages: [TranscriptEntry] {
        _ = transcriptChanges
        return session.messages
    }
    /// See ``ChatSession/transcript``.
    public var transcript: Transcript {
        _ = transcriptChanges
        return session.transcript
    }
    /// See ``ChatSession/runningReply``.
    public var runningReply: TranscriptEntry? {
        _ = transcriptChanges
        return session.runningReply
    }
    /// See ``ChatSession/isRunning``.
    public var isRunning: Bool {
        _ = transcriptChanges
        return session.isRunning
    }
    /// See ``ChatSession/artifactImages``.
    public var artifactImages: [ArtifactImageReference] {
        _ = transcriptChanges
        return session.artifactImages
    }
    /// See ``ChatSession/connectionState``.
    public var connectionState: ConnectionState {
        _ = connectionChanges
        return session.connectionState
    }
    /// See ``ChatSession/currentSessionKey``.
    public var currentSessionKey: String {
        _ = currentSessionChanges
        return session.currentSessionKey
    }
    /// See ``ChatSession/sessions``.
    public var sessions: [SessionSummary] {
        _ = sessionListChanges
        return session.sessions
    }
    /// See ``ChatSession/agentIdentity``.
    public var agentIdentity: AgentIdentity? {
        _ = agentChanges
        return session.agentIdentity
    }
    /// See ``ChatSession/sessionUsage``.
    public var sessionUsage: [String: SessionUsage] {
        _ = usageChanges
        return session.sessionUsage
    }
    /// See ``ChatSession/usage``.
    public var usage: SessionUsage? {
        // The usage is found by the canonical key, which the transcript's key matcher gives.
        _ = (usageChanges, currentSessionChanges, transcriptChanges)
        return session.usage
    }
    /// See ``ChatSession/gatewayCommands``.
    public var gatewayCommands: [GatewaySlashCommand] {
        _ = commandChanges
        return session.gatewayCommands
    }
    /// See ``ChatSession/alerts``.
    public var alerts: [ChatAlert] {
        _ = alertChanges
        return session.alerts
    }
    /// See ``ChatSession/outbox``.
    public var outbox: [OutboxMessage] {
        _ = outboxChanges
        return session.outbox
    }
    /// See ``ChatSession/thinkingLevel``.
    public var thinkingLevel: ThinkingLevel? {
        get {
            _ = settingChanges
            return session.thinkingLevel
        }
        set { session.thinkingLevel = newValue }
    }
    /// See ``ChatSession/queueMode``.
    public var queueMode: QueueMode? {
        _ = (settingChanges, currentSessionChanges)
        return session.queueMode
    }
    /// See ``ChatSession/gatewayID``.
    public var gatewayID: String { session.gatewayID }

    // MARK: - Actions

    /// Sends the composer's text; clears the composer at once.
    public func send() async {
        let text = composerText
        guard !text.allSatisfy(\.isWhitespace) else { return }
        composerText = ""
        await session.send(text)
    }
}
