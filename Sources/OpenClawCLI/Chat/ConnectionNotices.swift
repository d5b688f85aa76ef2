import OpenClawGateway

/// What the interactive chat says when the connection changes, decided apart from the printing so the
/// rules are unit-tested.
///
/// A gateway that stays down for an hour is retried about 120 times; one line per attempt buried the
/// conversation. Per outage it says when the connection was lost, then again only at attempts 2, 4, 8, 16 …
/// or when the cause changes — a handful of lines however long it lasts — and once when it is back. An
/// error only the person can fix (a refused token, a device awaiting approval) stops the retries and
/// points at `doctor` and `/reconnect`.
struct ConnectionNotices {
    enum Notice: Equatable {
        case connected(queued: Int)
        case reconnecting(summary: String, firstOfOutage: Bool)
        case offline(reason: String)
        case failed(GatewayError, needsPerson: Bool)
    }

    private var previous: ConnectionState
    private var lastCause: ReconnectStatus.Cause?

    init(initial: ConnectionState) {
        previous = initial
    }

    /// The notice for a new state, or nil when there is nothing worth a line.
    mutating func notice(for state: ConnectionState, queued: Int) -> Notice? {
        defer { previous = state }
        guard state != previous else { return nil }
        switch state {
        case .connected:
            lastCause = nil
            return .connected(queued: queued)
        case .connecting:
            return nil
        case .reconnecting(let status):
            let cause = status.cause
            let first = lastCause == nil
            let changed = cause != lastCause
            lastCause = cause
            guard first || changed || Self.isReported(attempt: status.attempt) else { return nil }
            return .reconnecting(summary: status.summary(), firstOfOutage: first)
        case .disconnected(let reason):
            return .offline(reason: reason.map { "\($0)" } ?? "disconnected")
        case .failed(let error):
            if case .failed(let earlier) = previous, earlier == error { return nil }
            return .failed(error, needsPerson: !error.isRetryable)
        }
    }

    /// Attempts 1, 2, 4, 8 …
    static func isReported(attempt: Int) -> Bool {
        attempt > 0 && attempt & (attempt - 1) == 0
    }
}
