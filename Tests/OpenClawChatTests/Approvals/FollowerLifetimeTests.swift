import OpenClawTestSupport
import Testing

@testable import OpenClawApprovals

/// The rules of what a following client keeps running: a job replaced by a newer one of the same name is
/// cancelled, a second event loop is refused, and `end()` cancels all and finishes every subscription.
@Suite("Follower lifetime")
struct FollowerLifetimeTests {
    private enum Job: Hashable { case catchUp, check }

    /// Which jobs saw their cancellation.
    private actor Cancellations {
        private(set) var names: Set<String> = []
        func add(_ name: String) { names.insert(name) }
    }

    /// Work that waits until it is cancelled, then says so.
    private static func waitForCancellation(
        _ name: String, into cancellations: Cancellations
    ) -> @Sendable () async -> Void {
        {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            await cancellations.add(name)
        }
    }

    @Test func aReplacedJobIsCancelledAndTheOtherNamesAreNot() async {
        let cancellations = Cancellations()
        var lifetime = FollowerLifetime<Int, Job>()
        lifetime.replace(.catchUp, with: Self.waitForCancellation("first catch-up", into: cancellations))
        lifetime.replace(.check, with: Self.waitForCancellation("check", into: cancellations))
        lifetime.replace(.catchUp, with: Self.waitForCancellation("second catch-up", into: cancellations))
        #expect(await eventually { await cancellations.names.contains("first catch-up") })
        #expect(await cancellations.names == ["first catch-up"])
        #expect(lifetime.isRunning(.catchUp) && lifetime.isRunning(.check))

        lifetime.end()
        #expect(await eventually { await cancellations.names.count == 3 })
        #expect(!lifetime.isRunning(.catchUp) && !lifetime.isRunning(.check))
    }

    @Test func aSecondLoopIsRefusedAndEndCancelsTheFirstAndFinishesSubscribers() async {
        let cancellations = Cancellations()
        var lifetime = FollowerLifetime<Int, Job>()
        let first = Task { await Self.waitForCancellation("first loop", into: cancellations)() }
        let second = Task { await Self.waitForCancellation("second loop", into: cancellations)() }
        lifetime.follow(first)
        lifetime.follow(second)
        #expect(await eventually { await cancellations.names.contains("second loop") })
        #expect(await cancellations.names == ["second loop"])

        let updates = lifetime.subscribers.subscribe(initial: [1]) { _ in }
        lifetime.subscribers.publish(2)
        lifetime.end()
        var received: [Int] = []
        for await update in updates { received.append(update) }
        #expect(received == [1, 2])
        #expect(await eventually { await cancellations.names.contains("first loop") })
        #expect(lifetime.following == nil)
    }
}
