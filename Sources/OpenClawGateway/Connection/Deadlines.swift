/// What the connection's clock waits for: the machine's timers, each with the token it fires with,
/// and the earliest deadline of the pending requests (`PendingRequests` keeps each request's own).
///
/// A value, so that what fires when, and when the clock must wake early, is decided without a clock:
/// `ConnectionClock` keeps one behind its lock and sleeps until `earliest`.
struct Deadlines: Equatable, Sendable {
    typealias Instant = ContinuousClock.Instant

    /// A machine timer that came due, with the token it was armed with.
    struct Fired: Equatable, Sendable {
        let name: TimerName
        let token: TimerToken
    }

    /// What came due at one look at the clock: machine timers, earliest first, and whether the
    /// requests' deadline passed.
    struct Due: Equatable, Sendable {
        var timers: [Fired] = []
        var requests = false

        var isEmpty: Bool { timers.isEmpty && !requests }
    }

    private struct Armed: Equatable, Sendable {
        let token: TimerToken
        let deadline: Instant
    }

    private var timers: [TimerName: Armed] = [:]
    /// When the earliest pending request times out, as far as the clock was told.
    private(set) var requests: Instant?

    /// The first deadline to come; nil when nothing is armed.
    var earliest: Instant? {
        let first = timers.values.lazy.map(\.deadline).min()
        guard let requests else { return first }
        return first.map { min($0, requests) } ?? requests
    }

    var isEmpty: Bool { timers.isEmpty && requests == nil }

    /// The token timer `name` is armed with; nil when it is not armed.
    func token(of name: TimerName) -> TimerToken? { timers[name]?.token }

    /// Arms timer `name` for `deadline`, replacing any earlier arming of that name. True when the
    /// clock must wake to sleep less: nothing came before `deadline` until now.
    mutating func arm(_ name: TimerName, token: TimerToken, at deadline: Instant) -> Bool {
        let before = earliest
        timers[name] = Armed(token: token, deadline: deadline)
        return before.map { deadline < $0 } ?? true
    }

    /// Disarms timer `name`. The clock needs no waking: at worst it wakes for nothing and sleeps again.
    mutating func cancel(_ name: TimerName) { timers[name] = nil }

    /// Makes the clock look at the requests by `deadline`: kept only when it comes before the
    /// requests' deadline already set. True when the clock must wake to sleep less.
    mutating func wakeForRequests(by deadline: Instant) -> Bool {
        if let set = requests, set <= deadline { return false }
        let before = earliest
        requests = deadline
        return before.map { deadline < $0 } ?? true
    }

    /// Takes out what is due at `now`: timers earliest first (in the order of `TimerName` when
    /// two fall at once), and the requests' deadline.
    mutating func takeDue(at now: Instant) -> Due {
        var due = Due()
        let fired = timers.filter { $0.value.deadline <= now }
        for name in fired.keys { timers[name] = nil }
        due.timers = fired.sorted { lhs, rhs in
            if lhs.value.deadline != rhs.value.deadline { return lhs.value.deadline < rhs.value.deadline }
            return Self.order(of: lhs.key) < Self.order(of: rhs.key)
        }
        .map { Fired(name: $0.key, token: $0.value.token) }
        if let requests, requests <= now {
            self.requests = nil
            due.requests = true
        }
        return due
    }

    /// Disarms everything (the connection's work ended).
    mutating func removeAll() {
        timers = [:]
        requests = nil
    }

    private static func order(of name: TimerName) -> Int {
        TimerName.allCases.firstIndex(of: name) ?? 0
    }
}
