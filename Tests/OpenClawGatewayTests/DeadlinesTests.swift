import Testing

@testable import OpenClawGateway

/// What the connection's one clock waits for: which deadline comes first, what is due when, and when
/// the sleeping clock must wake to sleep less.
@Suite("Deadlines")
struct DeadlinesTests {
    static let start = ContinuousClock.now

    static func at(_ seconds: Int) -> ContinuousClock.Instant { start + .seconds(seconds) }

    static func token(_ raw: Int) -> TimerToken { TimerToken(rawValue: raw) }

    /// One step on the value, and what it answered: whether the clock must wake (for `arm` and
    /// `wakeForRequests`), or nil for steps that answer nothing.
    enum Step {
        case arm(TimerName, token: Int, at: Int)
        case cancel(TimerName)
        case requests(by: Int)

        func apply(_ deadlines: inout Deadlines) -> Bool? {
            switch self {
            case .arm(let name, let token, let seconds):
                return deadlines.arm(name, token: DeadlinesTests.token(token), at: DeadlinesTests.at(seconds))
            case .cancel(let name):
                deadlines.cancel(name)
                return nil
            case .requests(let seconds): return deadlines.wakeForRequests(by: DeadlinesTests.at(seconds))
            }
        }
    }

    struct WakeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        /// What each step answered.
        let wakes: [Bool?]
        /// The earliest deadline after the steps, in seconds from the start.
        let earliest: Int?

        var testDescription: String { name }
    }

    static let wakeCases: [WakeCase] = [
        WakeCase(
            name: "the first deadline wakes the clock", steps: [.arm(.liveness, token: 1, at: 30)], wakes: [true],
            earliest: 30),
        WakeCase(
            name: "a later timer does not",
            steps: [.arm(.liveness, token: 1, at: 30), .arm(.reconnect, token: 2, at: 60)],
            wakes: [true, false], earliest: 30),
        WakeCase(
            name: "an earlier timer does",
            steps: [.arm(.liveness, token: 1, at: 30), .arm(.challenge, token: 2, at: 5)],
            wakes: [true, true], earliest: 5),
        WakeCase(
            name: "re-arming a name replaces it, even later",
            steps: [.arm(.liveness, token: 1, at: 5), .arm(.liveness, token: 2, at: 30)], wakes: [true, false],
            earliest: 30),
        WakeCase(
            name: "a cancelled timer no longer counts",
            steps: [.arm(.liveness, token: 1, at: 5), .arm(.reconnect, token: 2, at: 30), .cancel(.liveness)],
            wakes: [true, false, nil], earliest: 30),
        WakeCase(
            name: "requests with the same or later deadline ask nothing",
            steps: [.requests(by: 10), .requests(by: 10), .requests(by: 20)], wakes: [true, false, false], earliest: 10),
        WakeCase(
            name: "an earlier request deadline replaces the later one",
            steps: [.requests(by: 20), .requests(by: 10)], wakes: [true, true], earliest: 10),
        WakeCase(
            name: "a request deadline after a timer is kept without waking",
            steps: [.arm(.handshake, token: 1, at: 5), .requests(by: 10)], wakes: [true, false], earliest: 5),
        WakeCase(
            name: "a request deadline before a timer wakes",
            steps: [.arm(.handshake, token: 1, at: 5), .requests(by: 2)], wakes: [true, true], earliest: 2),
        WakeCase(name: "nothing armed, nothing to wait for", steps: [], wakes: [], earliest: nil),
    ]

    @Test(arguments: wakeCases) func whenTheClockMustWake(_ example: WakeCase) {
        var deadlines = Deadlines()
        let wakes = example.steps.map { $0.apply(&deadlines) }
        #expect(wakes == example.wakes)
        #expect(deadlines.earliest == example.earliest.map(Self.at))
    }

    struct DueCase: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        let now: Int
        let due: Deadlines.Due
        /// What is left to wait for, in seconds from the start.
        let next: Int?

        var testDescription: String { name }
    }

    static func fired(_ name: TimerName, _ token: Int) -> Deadlines.Fired {
        Deadlines.Fired(name: name, token: Self.token(token))
    }

    static let dueCases: [DueCase] = [
        DueCase(
            name: "nothing is due before its deadline", steps: [.arm(.liveness, token: 1, at: 30), .requests(by: 10)],
            now: 9, due: Deadlines.Due(), next: 10),
        DueCase(
            name: "a deadline is due at its instant", steps: [.arm(.liveness, token: 7, at: 30)], now: 30,
            due: Deadlines.Due(timers: [fired(.liveness, 7)]), next: nil),
        DueCase(
            name: "timers come out earliest first, with the token they were armed with",
            steps: [
                .arm(.reconnect, token: 3, at: 20), .arm(.challenge, token: 4, at: 10),
                .arm(.liveness, token: 5, at: 40),
            ],
            now: 25, due: Deadlines.Due(timers: [fired(.challenge, 4), fired(.reconnect, 3)]), next: 40),
        DueCase(
            name: "timers due at one instant come out in the order of their names",
            steps: [.arm(.reconnect, token: 1, at: 10), .arm(.challenge, token: 2, at: 10)], now: 10,
            due: Deadlines.Due(timers: [fired(.challenge, 2), fired(.reconnect, 1)]), next: nil),
        DueCase(
            name: "the requests' deadline comes due with the timers",
            steps: [.requests(by: 5), .arm(.handshake, token: 1, at: 5)],
            now: 6, due: Deadlines.Due(timers: [fired(.handshake, 1)], requests: true), next: nil),
        DueCase(
            name: "a re-armed timer fires once, with its new token",
            steps: [.arm(.liveness, token: 1, at: 5), .arm(.liveness, token: 2, at: 8)], now: 10,
            due: Deadlines.Due(timers: [fired(.liveness, 2)]), next: nil),
        DueCase(
            name: "a cancelled timer never fires", steps: [.arm(.reconnect, token: 1, at: 5), .cancel(.reconnect)],
            now: 10,
            due: Deadlines.Due(), next: nil),
    ]

    @Test(arguments: dueCases) func whatIsDue(_ example: DueCase) {
        var deadlines = Deadlines()
        for step in example.steps { _ = step.apply(&deadlines) }
        #expect(deadlines.takeDue(at: Self.at(example.now)) == example.due)
        #expect(deadlines.earliest == example.next.map(Self.at))
        #expect(deadlines.takeDue(at: Self.at(example.now)).isEmpty, "taken out once")
    }

    @Test func aTimersTokenIsKnownUntilItFiresOrIsCancelled() {
        var deadlines = Deadlines()
        _ = deadlines.arm(.liveness, token: Self.token(3), at: Self.at(5))
        _ = deadlines.arm(.reconnect, token: Self.token(4), at: Self.at(9))
        #expect(deadlines.token(of: .liveness) == Self.token(3))
        _ = deadlines.takeDue(at: Self.at(5))
        #expect(deadlines.token(of: .liveness) == nil)
        deadlines.cancel(.reconnect)
        #expect(deadlines.token(of: .reconnect) == nil)
        #expect(deadlines.isEmpty)
    }

    @Test func removingAllLeavesNothingToWaitFor() {
        var deadlines = Deadlines()
        _ = deadlines.arm(.liveness, token: Self.token(1), at: Self.at(5))
        _ = deadlines.wakeForRequests(by: Self.at(2))
        deadlines.removeAll()
        #expect(deadlines.isEmpty)
        #expect(deadlines.earliest == nil)
        #expect(deadlines.takeDue(at: Self.at(100)).isEmpty)
    }
}
