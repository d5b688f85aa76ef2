/// When a followed run's output says the connection came back: decided from the socket's generation,
/// not only from having seen it offline. The follower looks at the chat when something changes, and on a
/// loaded machine a drop, the reconnect and the catch-up can all happen between two looks; the
/// generation still tells that the socket is a new one.
struct ReconnectNotice {
    private var generation: Int?
    private var wasOffline = false

    /// Takes the current socket's generation (nil while offline); true when a reconnect is to be told.
    mutating func observe(generation current: Int?) -> Bool {
        guard let current else {
            wasOffline = true
            return false
        }
        defer {
            generation = current
            wasOffline = false
        }
        return wasOffline || generation.map { $0 != current } ?? false
    }
}
