#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When this device first saw each running step: the start of the live line's elapsed time.
///
/// Kept by the screen, not by the row's view: a lazily built list drops a row's view state when the row
/// scrolls away, and the clock would then start again at 0 s for a step that has run for a minute. Not
/// the gateway's `startedAtMs` either: a gateway clock minutes off would make a step look minutes long
/// (see ``LiveActivity/line(elapsedMs:)``). The terminal's run follower keeps one too.
@MainActor
public final class StepClock {
    private var starts: [String: Date] = [:]
    private var order: [String] = []
    /// Steps remembered; the oldest is forgotten past this (only running steps are asked about).
    static let capacity = 64

    public init() {}

    /// When `stepId` was first asked about, `now` the first time.
    public func start(of stepId: String, now: Date = Date()) -> Date {
        if let start = starts[stepId] { return start }
        starts[stepId] = now
        order.append(stepId)
        if order.count > Self.capacity { starts.removeValue(forKey: order.removeFirst()) }
        return now
    }
}
