import OpenClawProtocol

/// Where the chat engine keeps what must outlive the process: the transcripts the gateway confirmed
/// (to paint a conversation before the gateway answers, and to search it) and the outbox of messages
/// not yet confirmed (so nothing typed is ever lost).
///
/// A protocol so the engine runs on an in-memory store in tests and previews, and on SQLite
/// (`OpenClawStore`) in the apps. Every call is scoped by a gateway id: two gateways never mix.
/// Implementations must make each call atomic, so a crash leaves either the old or the new state.
public protocol ChatStore: Sendable {
    /// The newest `limit` stored messages of a session, oldest first.
    func latestMessages(gateway: String, sessionKey: String, limit: Int) async throws -> [StoredMessage]

    /// Records messages of a `chat.history` page, in page order: a message already stored (same
    /// history key) is updated in place, a new one is placed after the stored message it follows in
    /// the page. Stored messages the page does not contain are kept (the gateway's page is a window).
    func record(_ messages: [StoredMessage], gateway: String, sessionKey: String) async throws

    /// Messages whose text matches every word of `query`, best match first; across all sessions of
    /// `gateway`, or of every gateway when nil.
    func search(_ query: String, gateway: String?, limit: Int) async throws -> [SearchHit]

    /// Adds a message to the outbox. Called before the first send attempt, so a crash cannot lose it.
    func enqueue(_ message: OutboxMessage) async throws

    /// Replaces the stored state of an outbox message (by gateway and id).
    func update(_ message: OutboxMessage) async throws

    /// Removes a message from the outbox: confirmed by history, or discarded by the user.
    func removeFromOutbox(id: String, gateway: String) async throws

    /// The outbox of a gateway, oldest first (the order to deliver in).
    func outbox(gateway: String) async throws -> [OutboxMessage]

    /// Whether what the outbox holds outlives this process (a store on disk): what to tell someone who
    /// quits with messages not yet delivered.
    var keepsOutboxAcrossLaunches: Bool { get }

    /// Puts everything written so far where a process ended without notice finds it at no extra cost
    /// (a store on disk: its database file, WAL emptied); true when done. An app calls it as it goes to
    /// the background. A store in memory has nothing to do.
    @discardableResult
    func checkpoint() async throws -> Bool
}

extension ChatStore {
    public var keepsOutboxAcrossLaunches: Bool { false }

    @discardableResult
    public func checkpoint() async throws -> Bool { true }
}

/// An error by which a store declines to keep an outbox message (its files would pass the store's
/// bound), as opposed to failing: the message stays in memory, and the person is told why.
public protocol OutboxRefusal: Error, CustomStringConvertible {}

/// A message of a session's history as the store keeps it: the gateway's message plus the row
/// identity the transcript gave it, so a restored conversation keeps its ids.
public struct StoredMessage: Sendable, Hashable {
    /// The transcript row id.
    public var id: String
    /// The key that names the message across history fetches (see `ChatMessage.stableKey`).
    public var historyKey: String
    public var runId: String?
    public var message: ChatMessage
    /// Tool timings seen live (gateway epoch ms), by tool call id: history alone has no durations.
    public var toolTimings: [String: StoredToolTiming]

    public init(
        id: String,
        historyKey: String,
        runId: String? = nil,
        message: ChatMessage,
        toolTimings: [String: StoredToolTiming] = [:]
    ) {
        self.id = id
        self.historyKey = historyKey
        self.runId = runId
        self.message = message
        self.toolTimings = toolTimings
    }
}

/// When a tool call ran, as `agent` events reported it.
public struct StoredToolTiming: Sendable, Hashable {
    public var startedAtMs: Int?
    public var endedAtMs: Int?
    public var isError: Bool?

    public init(startedAtMs: Int? = nil, endedAtMs: Int? = nil, isError: Bool? = nil) {
        self.startedAtMs = startedAtMs
        self.endedAtMs = endedAtMs
        self.isError = isError
    }
}

/// One search result.
public struct SearchHit: Sendable, Hashable {
    /// A piece of the matching passage: a match, or the text around matches.
    public struct Part: Sendable, Hashable {
        public var text: String
        public var isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public var gateway: String
    public var sessionKey: String
    /// The transcript row id of the message.
    public var messageId: String
    public var role: ChatRole
    /// The matching passage in pieces, matches marked, elided with `…`: each front end styles matches its
    /// own way (bold in the app, reverse video on a terminal), and a bracket in the message is just text.
    public var parts: [Part]
    public var timestampMs: Int?

    public init(
        gateway: String, sessionKey: String, messageId: String, role: ChatRole, parts: [Part], timestampMs: Int?
    ) {
        self.gateway = gateway
        self.sessionKey = sessionKey
        self.messageId = messageId
        self.role = role
        self.parts = parts
        self.timestampMs = timestampMs
    }

    /// The passage as plain text with matches in `[` `]` (for output that cannot style: pipes, JSON).
    public var snippet: String {
        parts.map { $0.isMatch ? "[\($0.text)]" : $0.text }.joined()
    }
}
