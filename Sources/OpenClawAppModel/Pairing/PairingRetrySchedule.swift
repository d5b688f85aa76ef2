/// How long to wait between connection attempts while a pairing request waits for approval.
///
/// Every attempt reaches the gateway, which re-announces the pending request to its operators (a
/// notification on their devices), so the schedule starts slow and grows: approval is a human act
/// that takes seconds to minutes. The "I approved it" button attempts at once instead.
public struct PairingRetrySchedule: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    /// Each wait is the previous one times this.
    public var factor: Int

    public init(initial: Duration = .seconds(3), maximum: Duration = .seconds(30), factor: Int = 2) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.factor = max(1, factor)
    }

    /// The wait before attempt `attempt + 1` (0 is the wait after the refusal that started pairing).
    public func delay(afterAttempt attempt: Int) -> Duration {
        var delay = initial
        for _ in 0..<max(0, attempt) {
            delay *= factor
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }
}
