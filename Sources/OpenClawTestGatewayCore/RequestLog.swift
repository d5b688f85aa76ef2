import OpenClawProtocol

/// What the hub notes of each request after the handshake, by method, for tests that wait on a
/// client's requests from outside it.
struct RequestLog: Sendable {
    private(set) var counts: [String: Int] = [:]
    /// When each method's latest request was taken up (for timing a client's start from outside it).
    private(set) var lastArrivals: [String: ContinuousClock.Instant] = [:]
    /// The params of the latest request of each method, as received.
    var lastParams: [String: JSONValue] = [:]

    mutating func noteArrival(_ method: String) {
        counts[method, default: 0] += 1
        lastArrivals[method] = .now
    }
}
