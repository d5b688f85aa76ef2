/// What the gateway does with a message that arrives while the session is already running a turn
/// (`chat.send` `queueMode`, protocol 4).
///
/// Sent only to override the session's stored mode for one message; without it the gateway applies
/// the session's `/queue` setting, then its configuration, then `steer`. Upstream advertises no flag
/// for it: gateways of protocol 3, and v4 builds before the field, refuse it as an unexpected property
/// (closed params), so a client sends it only on protocol 4 and drops it when refused.
public enum QueueMode: String, Sendable, Hashable, CaseIterable {
    /// Injected into the running turn at its next tool or model boundary; an idle session starts a turn.
    case steer
    /// Queued, each message its own turn after the running one ends.
    case followup
    /// Queued, and the queued messages coalesce into one turn after the running one.
    case collect
    /// The running turn is aborted, then this message starts a new one.
    case interrupt

    /// The mode a person typed (`/queue Steer`, `follow-up`): case and dashes ignored.
    public init?(typed text: String) {
        let word = text.lowercased().filter { $0 != "-" && !$0.isWhitespace }
        self.init(rawValue: word)
    }
}
