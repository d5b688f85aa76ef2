/// What changed in a ``ChatSession``, by kind: a consumer reads the session's current state for the
/// kinds it follows.
///
/// A set rather than one value per change: a streamed reply changes the transcript once per delta,
/// and a consumer that draws once per wake-up needs to know *that* the transcript changed since it last
/// looked, not how many times. Kinds accumulate until the consumer takes them, so none is ever lost and
/// memory stays bounded however fast the gateway streams.
public struct ChatChanges: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Rows, runs or their status: ``ChatSession/transcript`` and ``ChatSession/messages``.
    public static let transcript = ChatChanges(rawValue: 1 << 0)
    /// ``ChatSession/connectionState``.
    public static let connection = ChatChanges(rawValue: 1 << 1)
    /// Another session is followed: ``ChatSession/currentSessionKey``.
    public static let currentSession = ChatChanges(rawValue: 1 << 2)
    /// The gateway's session list: ``ChatSession/sessions``.
    public static let sessions = ChatChanges(rawValue: 1 << 3)
    /// ``ChatSession/agentIdentity``.
    public static let agent = ChatChanges(rawValue: 1 << 4)
    /// Tokens and cost as `sessions.changed` reports them: ``ChatSession/sessionUsage``.
    public static let usage = ChatChanges(rawValue: 1 << 5)
    /// The gateway's own slash commands: ``ChatSession/gatewayCommands``.
    public static let commands = ChatChanges(rawValue: 1 << 6)
    /// ``ChatSession/alerts``.
    public static let alerts = ChatChanges(rawValue: 1 << 7)
    /// Messages waiting for delivery: ``ChatSession/outbox``.
    public static let outbox = ChatChanges(rawValue: 1 << 8)
    /// What goes with the next message: ``ChatSession/thinkingLevel``, ``ChatSession/queueModes``.
    public static let settings = ChatChanges(rawValue: 1 << 9)

    /// Every kind.
    public static let all = ChatChanges(rawValue: (1 << 10) - 1)
}
