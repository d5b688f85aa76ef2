import OpenClawGateway
import OpenClawProtocol

/// The chat methods of a gateway as typed calls: params in, decoded results out, each with its own
/// timeout. What sits above it (the view model, the terminal's chat) works with these types, never with
/// the chat methods' names or response shapes.
///
/// A small value (the connection and the timeouts): make one wherever it is needed. A request made
/// while the connection has no session fails at once with `GatewayError.notConnected`.
public struct ChatClient: Sendable {
    /// The connection the calls go through.
    public let connection: GatewayConnection
    /// How long each method waits for its answer.
    public var timeouts: ChatTimeouts

    /// A client for `connection`, with the default timeouts unless given.
    public init(connection: GatewayConnection, timeouts: ChatTimeouts = ChatTimeouts()) {
        self.connection = connection
        self.timeouts = timeouts
    }

    /// The latest `limit` messages of a session, as the gateway stores them (the source of truth).
    public func history(sessionKey: String, limit: Int? = nil) async throws(GatewayError) -> ChatHistoryPage {
        try await connection.call(ChatHistoryParams(sessionKey: sessionKey, limit: limit), timeout: timeouts.history)
    }

    /// Starts a run — or, for a stop command, stops the session's runs (`ChatSendResult.stopCommand`).
    /// `idempotencyKey` is made by the client, becomes the run id, and makes a resend after a lost
    /// connection safe while the gateway remembers the key (5 minutes after the run ends): it answers
    /// `in_flight` or the cached result instead of a second run.
    ///
    /// `queueMode` goes out only to a protocol 4 gateway (``supportsQueueModes(_:)``); one that refuses
    /// the field (a v4 build from before it) gets the same message again without it — a refusal at
    /// validation starts no run, so the same key is safe — and the session's own mode applies.
    public func send(
        sessionKey: String,
        message: String,
        idempotencyKey: String,
        thinking: String? = nil,
        attachments: [Attachment] = [],
        queueMode: QueueMode? = nil
    ) async throws(GatewayError) -> ChatSendResult {
        var params = ChatSendParams(
            sessionKey: sessionKey,
            message: message,
            idempotencyKey: idempotencyKey,
            thinking: thinking
        )
        if let queueMode, let session = await connection.session, Self.supportsQueueModes(session.hello) {
            params.queueMode = queueMode
        }
        do {
            return try await send(params, attachments: attachments)
        } catch let error where params.queueMode != nil && Self.refusesQueueMode(error) {
            params.queueMode = nil
            return try await send(params, attachments: attachments)
        }
    }

    /// Whether `chat.send` may carry a `QueueMode` on this connection: protocol 4 (no gateway
    /// advertises the field; older ones refuse unknown params).
    public static func supportsQueueModes(_ hello: HelloOk) -> Bool { hello.protocolNumber >= 4 }

    /// A validation refusal that names `queueMode`: the gateway predates the field.
    static func refusesQueueMode(_ error: GatewayError) -> Bool {
        guard case .requestFailed(_, let shape) = error, shape.code == .invalidRequest else { return false }
        return shape.message.contains("queueMode")
    }

    private func send(
        _ params: ChatSendParams, attachments: [Attachment]
    ) async throws(GatewayError) -> ChatSendResult {
        guard !attachments.isEmpty else {
            return try await connection.call(params, timeout: timeouts.send)
        }
        guard let session = await connection.session else { throw .notConnected }
        try Self.check(attachments, against: AttachmentLimits(hello: session.hello))
        let request = ChatSendRequest(params: params, attachments: attachments.map(\.outgoing))
        let payload = try await connection.request(request, timeout: timeouts.send)
        guard let result = params.response(from: payload) else {
            throw .invalidResponse(method: ChatSendParams.method, reason: "unexpected shape")
        }
        return result
    }

    /// Refuses, before anything is read or sent, an attachment the gateway would refuse or drop.
    public static func check(_ attachments: [Attachment], against limits: AttachmentLimits) throws(GatewayError) {
        for attachment in attachments {
            do throws(AttachmentError) {
                try limits.check(attachment)
            } catch {
                throw .attachment(error)
            }
        }
    }

    /// Stops a run. `sessionKey` must be the very string used to send: the gateway compares it exactly.
    public func abort(sessionKey: String, runId: String?) async throws(GatewayError) -> ChatAbortResult {
        try await connection.call(ChatAbortParams(sessionKey: sessionKey, runId: runId), timeout: timeouts.abort)
    }

    /// The gateway's sessions (at most `limit`), for a session picker.
    public func sessions(limit: Int? = nil) async throws(GatewayError) -> SessionsListResult {
        try await connection.call(SessionsListParams(limit: limit), timeout: timeouts.sessions)
    }

    /// The models the gateway can route to.
    public func models() async throws(GatewayError) -> ModelsListResult {
        try await connection.call(ModelsListParams(), timeout: timeouts.models)
    }

    /// Sets the model of one session (nil: back to the gateway's default); the model the gateway resolved.
    /// v4 allows this with `operator.write`; a v3 gateway refuses it without `operator.admin`.
    public func setModel(sessionKey: String, model: String?) async throws(GatewayError) -> SessionModelPatchResult {
        try await connection.call(SessionModelPatchParams(key: sessionKey, model: model), timeout: timeouts.models)
    }

    /// Starts a session afresh (`operator.admin`): its transcript is emptied, its settings kept.
    public func resetSession(sessionKey: String) async throws(GatewayError) {
        _ = try await connection.call(SessionResetParams(key: sessionKey), timeout: timeouts.models)
    }

    /// Turns on `sessions.changed` for this socket (until it closes).
    public func subscribeToSessionChanges() async throws(GatewayError) {
        _ = try await connection.call(SessionsSubscribeParams(), timeout: timeouts.sessions)
    }

    /// The gateway's own slash commands, with their descriptions.
    public func commands() async throws(GatewayError) -> CommandsListResult {
        try await connection.call(CommandsListParams(), timeout: timeouts.sessions)
    }

    /// The agent's name and avatar, for headers.
    public func agentIdentity(agentId: String? = nil) async throws(GatewayError) -> AgentIdentity {
        try await connection.call(AgentIdentityParams(agentId: agentId), timeout: timeouts.identity)
    }

    /// Connection events with `chat` and `agent` payloads decoded; other events pass through untyped.
    /// Decoded on the consumer's executor as they are taken: no second buffer, task or hop per delta.
    /// The buffer is the connection's subscription, bounded: a consumer that falls behind holds the
    /// socket's reading back (cumulative v3 deltas are merged instead), so read it steadily or drop it.
    public func events() -> ChatStreamEvents {
        ChatStreamEvents(base: connection.events())
    }
}

/// The connection's events as ``ChatStreamEvent``s, decoded where they are consumed.
///
/// Not `AsyncStream.map`: its transform is a nonisolated async closure, so a consumer on the main actor
/// hops to the global executor and back for every event — two thread handoffs per streamed delta, about
/// as much as decoding and reducing it (measured with `Benchmarks/`). This iterator decodes in place.
public struct ChatStreamEvents: AsyncSequence, Sendable {
    public typealias Element = ChatStreamEvent
    public typealias Failure = Never

    let base: GatewayEvents

    /// Takes the next event and decodes it on the caller's executor.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: GatewayEvents.AsyncIterator

        public mutating func next() async -> ChatStreamEvent? {
            await base.next().map(ChatStreamEvent.init)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> ChatStreamEvent? {
            await base.next(isolation: actor).map(ChatStreamEvent.init)
        }

        /// The events waiting (at most `limit`), or the next one to arrive, decoded on the caller's
        /// executor; nil once the sequence ends. One hop to the caller per batch, not per delta.
        package mutating func next(
            upTo limit: Int, isolation actor: isolated (any Actor)? = #isolation
        ) async -> [ChatStreamEvent]? {
            await base.next(upTo: limit, isolation: actor)?.map(ChatStreamEvent.init)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }
}

/// Per-method timeouts. The official iOS client's values, with a little more room for `chat.send`,
/// whose ack can wait behind a busy gateway.
public struct ChatTimeouts: Sendable, Equatable {
    /// `chat.history`: 15 s.
    public var history: Duration = .seconds(15)
    /// `chat.send`, until the gateway acknowledges the message (not until the reply): 35 s.
    public var send: Duration = .seconds(35)
    /// `chat.abort`: 10 s.
    public var abort: Duration = .seconds(10)
    /// `sessions.list`: 15 s.
    public var sessions: Duration = .seconds(15)
    /// `models.list`, `sessions.patch` and `sessions.reset`: 15 s.
    public var models: Duration = .seconds(15)
    /// `agent.identity.get`: 15 s.
    public var identity: Duration = .seconds(15)

    /// The default timeouts.
    public init() {}
}

/// What the chat layer hears from the connection, typed.
///
/// ``ChatClient/events()`` yields these in arrival order. `chat` and `agent` events are what a
/// ``Transcript`` takes; `connected`, `disconnected` and `gap` tell it when live events may have been lost.
public enum ChatStreamEvent: Sendable, Equatable {
    /// A handshake completed, the first one or a reconnect: events sent while the socket was down are
    /// lost, so reload history.
    indirect case connected(GatewaySession)
    /// The connection ended; with reconnecting on, a `connected` follows when it is back.
    case disconnected(DisconnectReason)
    /// A `chat` event: reply text and the end of a run.
    case chat(ChatEvent)
    /// An `agent` event: what a run does on the way (thinking, tool calls).
    case agent(AgentEvent)
    /// Events were lost on a live connection: reload history to recover.
    case gap(expected: Int, received: Int)
    /// A `shutdown` notice: the gateway is going away and expects to be back after the delay.
    case shutdown(ShutdownEvent)
    /// Any other event, or a `chat`/`agent` payload that could not be read.
    case other(EventFrame)
    /// A frame that was not understood at all (malformed or of an unknown type).
    case ignored

    init(_ event: GatewayEvent) {
        switch event {
        case .connected(let session): self = .connected(session)
        case .disconnected(let reason): self = .disconnected(reason)
        case .gap(let expected, let received): self = .gap(expected: expected, received: received)
        case .unknownFrame, .malformedFrame: self = .ignored
        case .event(let frame):
            switch frame.event {
            case GatewayEventName.chat: self = ChatEvent(frame: frame).map(ChatStreamEvent.chat) ?? .other(frame)
            case GatewayEventName.agent: self = AgentEvent(frame: frame).map(ChatStreamEvent.agent) ?? .other(frame)
            case GatewayEventName.shutdown: self = .shutdown(ShutdownEvent(json: frame.payload))
            default: self = .other(frame)
            }
        }
    }
}
