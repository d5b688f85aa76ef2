/// Whether an event may stand in for an earlier one while a reader is behind: knowledge of what the
/// events mean, so it lives with them and not in the connection that queues them.
public enum EventCoalescing: Sendable, Hashable {
    /// Every such event counts on its own.
    case distinct
    /// Carries everything the earlier event with the same key carried (a v3 chat delta holds the whole
    /// reply so far): it may replace that one, in its place.
    case replacesEarlier(key: String)
    /// Another event of the same key that must not be merged across (the run's end).
    case endsReplacement(key: String)
}

extension EventFrame {
    /// How this event may be coalesced on a socket speaking `version`. Only v3 chat deltas carry the
    /// whole reply so far; v4 deltas are appends, and everything else is distinct.
    public func coalescing(on version: ProtocolVersion) -> EventCoalescing {
        guard version == .v3, event == GatewayEventName.chat, let payload, let runId = payload["runId"]?.stringValue
        else { return .distinct }
        let key = "\(payload["sessionKey"]?.stringValue ?? "")|\(runId)"
        let isDelta = payload["state"]?.stringValue.map(ChatEventState.init(wireValue:)) == .delta
        return isDelta ? .replacesEarlier(key: key) : .endsReplacement(key: key)
    }
}
