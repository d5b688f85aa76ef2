import OpenClawProtocol

/// Decides what a frame `seq` gap means, by protocol version (`gateway-protocol-v3.md` §6.1,
/// `gateway-protocol-v4.md` §3.2 rule 6).
///
/// * v4 numbers frames per socket: a gap is a lost frame, and a lost append-only `deltaText` corrupts
///   the reply, so history is fetched at once.
/// * v3 gateways (the code of April 2026) number frames with one counter for the whole process, taken
///   before events are filtered by scope: a socket sees gaps for events it may not see, as a matter of
///   course. A v3 reply cannot be corrupted by a lost delta (each carries the whole text), so a gap
///   while a run streams waits: the run's end fetches history anyway. Only a lost end would leave the
///   run hanging, so if a whole tick interval passes with no event of the run after a gap, history is
///   fetched then. A gap while nothing runs is rare and cheap to check: fetched at once.
struct SequenceGapTracker: Sendable {
    enum Decision: Sendable, Equatable {
        case resyncNow
        case waitForRunEnd
    }

    /// A v3 gap during a run is waiting for the run's end or a silent tick.
    private(set) var isWaiting = false
    private var runEventsSinceGap = 0
    private var ticksSinceGap = 0

    mutating func gap(protocolVersion: ProtocolVersion?, runActive: Bool) -> Decision {
        guard protocolVersion == .v3, runActive else { return .resyncNow }
        isWaiting = true
        runEventsSinceGap = 0
        ticksSinceGap = 0
        return .waitForRunEnd
    }

    /// A `chat` or `agent` event arrived; `runActive` is whether a run is still going after it, asked
    /// only while a gap waits (it passes over the whole transcript: not once per streamed delta).
    mutating func runEvent(runActive: @autoclosure () -> Bool) {
        guard isWaiting else { return }
        runEventsSinceGap += 1
        if !runActive() { isWaiting = false }
    }

    /// A `tick` arrived: true when a waiting gap should now fetch history (nothing of the run came
    /// during a whole tick interval).
    mutating func tick() -> Bool {
        guard isWaiting else { return false }
        let silentInterval = ticksSinceGap >= 1 && runEventsSinceGap == 0
        ticksSinceGap += 1
        runEventsSinceGap = 0
        if silentInterval { isWaiting = false }
        return silentInterval
    }

    /// A new socket: numbering restarts, and the reconnect fetches history anyway.
    mutating func reset() {
        isWaiting = false
        runEventsSinceGap = 0
        ticksSinceGap = 0
    }
}
