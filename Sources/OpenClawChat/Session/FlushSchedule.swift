/// When the outbox is flushed: one flush at a time, and no request for one ever lost.
///
/// A flush is a pass over the outbox (deliver what waits, refresh history if asked, confirm other
/// sessions' messages) with network waits in it; a message queued during a pass must go out in that
/// flush or the next, whatever part of the pass it arrived in. An earlier pair of flags re-ran only the
/// delivery loop and dropped a request made during the tail of the pass (while other sessions were
/// confirmed from history): a `send` to one session after an unconfirmed `send` to another then never
/// left (issue 38). Here a request made at any time during a pass makes the whole pass run again.
///
/// A value with no I/O, so the rule is tested alone (`FlushScheduleTests`); ``ChatSession`` asks it
/// before and after each pass.
struct FlushSchedule: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// No flush is running.
        case idle
        /// A pass is running, and nothing was asked for since it started.
        case running
        /// A pass is running and a flush was asked for since it started: what that caller queued may
        /// have been passed over, so another pass follows.
        case runningAndRequested
    }

    private(set) var state = State.idle

    /// A flush is wanted. True: the caller runs it now (nothing was running). False: a pass is running
    /// and will be followed by another, which serves this caller.
    mutating func request() -> Bool {
        switch state {
        case .idle:
            state = .running
            return true
        case .running, .runningAndRequested:
            state = .runningAndRequested
            return false
        }
    }

    /// The flush, only if none is running: true when the caller runs it now; false changes nothing (a
    /// running pass is not asked to go again). For a sender whose message must be the flush's first.
    mutating func claimIfIdle() -> Bool {
        guard state == .idle else { return false }
        state = .running
        return true
    }

    /// The running pass is over. True: run another pass (a flush was asked for during this one, and
    /// delivery is possible). False: the flush is over; without a connection a request made meanwhile
    /// is dropped, as the next connection flushes by itself.
    mutating func passEnded(canDeliver: Bool) -> Bool {
        let again = state == .runningAndRequested && canDeliver
        state = again ? .running : .idle
        return again
    }
}
