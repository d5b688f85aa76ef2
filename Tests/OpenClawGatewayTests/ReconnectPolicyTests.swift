import OpenClawGateway
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The backoff arithmetic, without clocks or sockets: the delay is a pure function of the attempt
/// number and a random value, so every case is exact.
@Suite("Reconnect policy")
struct ReconnectPolicyTests {
    @Test func theStandardPolicyIsHalfASecondDoublingToThirtySecondsWithEqualJitter() {
        let policy = ReconnectPolicy.standard
        #expect(policy.initialDelay == .milliseconds(500))
        #expect(policy.maxDelay == .seconds(30))
        #expect(policy.multiplier == 2)
        #expect(policy.jitter == .equal)
    }

    @Test func withoutJitterTheDelayDoublesUpToTheCap() {
        let policy = ReconnectPolicy(jitter: .none)
        let delays = (1...9).map { policy.delay(forAttempt: $0, randomUnit: 0.7).roundedMs }
        #expect(delays == [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
    }

    @Test func attemptsBelowOneWaitTheInitialDelayAndHugeOnesTheCap() {
        let policy = ReconnectPolicy(jitter: .none)
        #expect(policy.delay(forAttempt: 0, randomUnit: 0).roundedMs == 500)
        #expect(policy.delay(forAttempt: -3, randomUnit: 0).roundedMs == 500)
        #expect(policy.delay(forAttempt: 10_000, randomUnit: 0).roundedMs == 30_000)
        #expect(policy.delay(forAttempt: .max, randomUnit: 0).roundedMs == 30_000)
    }

    @Test func fullJitterSpansZeroToTheDelay() {
        let policy = ReconnectPolicy(jitter: .full)
        #expect(policy.delay(forAttempt: 3, randomUnit: 0) == .zero)
        #expect(policy.delay(forAttempt: 3, randomUnit: 0.5).roundedMs == 1000)
        #expect(policy.delay(forAttempt: 3, randomUnit: 1).roundedMs == 2000)
    }

    @Test func equalJitterSpansHalfTheDelayToTheDelay() {
        let policy = ReconnectPolicy(jitter: .equal)
        #expect(policy.delay(forAttempt: 3, randomUnit: 0).roundedMs == 1000)
        #expect(policy.delay(forAttempt: 3, randomUnit: 0.5).roundedMs == 1500)
        #expect(policy.delay(forAttempt: 3, randomUnit: 1).roundedMs == 2000)
        // Out-of-range randomness is clamped, never stretching the delay or making it negative.
        #expect(policy.delay(forAttempt: 3, randomUnit: -4).roundedMs == 1000)
        #expect(policy.delay(forAttempt: 3, randomUnit: 9).roundedMs == 2000)
        #expect(policy.delay(forAttempt: 3, randomUnit: .nan).roundedMs == 1000)
    }

    @Test func aSeededGeneratorGivesTheSameDelaysEveryTimeWithinTheBounds() {
        let policy = ReconnectPolicy.standard
        var first = SeededRandom(seed: 42)
        var second = SeededRandom(seed: 42)
        let run1 = (1...12).map { policy.delay(forAttempt: $0, using: &first) }
        let run2 = (1...12).map { policy.delay(forAttempt: $0, using: &second) }
        #expect(run1 == run2)

        var generator = SeededRandom(seed: 7)
        let bare = ReconnectPolicy(jitter: .none)
        for _ in 0..<200 {
            for attempt in 1...12 {
                let ceiling = bare.delay(forAttempt: attempt, randomUnit: 0)
                let delay = policy.delay(forAttempt: attempt, using: &generator)
                #expect(delay >= ceiling / 2 && delay <= ceiling, "attempt \(attempt): \(delay)")
            }
        }
    }

    @Test func aMultiplierBelowOneKeepsTheDelayConstant() {
        let policy = ReconnectPolicy(
            initialDelay: .milliseconds(20), maxDelay: .seconds(1), multiplier: 0.5, jitter: .none)
        #expect((1...5).map { policy.delay(forAttempt: $0, randomUnit: 0).roundedMs } == [20, 20, 20, 20, 20])
    }

    @Test func aCapBelowTheInitialDelayIsTheInitialDelay() {
        let policy = ReconnectPolicy(initialDelay: .seconds(2), maxDelay: .seconds(1), jitter: .none)
        #expect(policy.delay(forAttempt: 4, randomUnit: 0).roundedMs == 2000)
    }

    @Test func aHintIsNeverShortenedAndSpreadByAtMostATenth() {
        let policy = ReconnectPolicy.standard
        #expect(policy.hintedDelay(.milliseconds(5000), randomUnit: 0).roundedMs == 5000)
        #expect(policy.hintedDelay(.milliseconds(5000), randomUnit: 1).roundedMs == 5500)
        #expect(policy.hintedDelay(.milliseconds(5000), randomUnit: 0.5).roundedMs == 5250)
        // A hint below the initial delay is honoured as given: the gateway knows best.
        #expect(policy.hintedDelay(.milliseconds(100), randomUnit: 0).roundedMs == 100)
        #expect(policy.hintedDelay(.milliseconds(-5), randomUnit: 0.5) == .zero)
    }

    @Test func anAbsurdHintIsCapped() {
        let policy = ReconnectPolicy.standard
        let delay = policy.hintedDelay(.seconds(86_400), randomUnit: 0)
        #expect(delay == ReconnectPolicy.maximumHint)
    }

    @Test func theStatusSaysWhenAndWhy() {
        let now = ContinuousClock.now
        let status = ReconnectStatus(
            attempt: 3,
            delay: .milliseconds(3500),
            nextAttemptAt: now + .milliseconds(3500),
            cause: .disconnected(.connectionLost)
        )
        #expect(status.secondsRemaining(now: now) == 4)
        #expect(status.secondsRemaining(now: now + .seconds(5)) == 0)
        #expect(status.summary(now: now) == "reconnecting in 4 s (attempt 3): the connection dropped")
        #expect(status.summary(now: now + .seconds(4)) == "reconnecting now (attempt 3): the connection dropped")
        let failed = ReconnectStatus(
            attempt: 2, delay: .seconds(1), nextAttemptAt: now + .seconds(1),
            cause: .attemptFailed(.gatewayUnavailable(retryAfterMs: 500, message: "gateway starting"))
        )
        #expect(failed.summary(now: now).hasSuffix("The gateway is not ready yet (gateway starting)."))
    }
}

extension Duration {
    /// Whole milliseconds, rounded to the nearest: delays built from floating-point seconds compare
    /// exactly at this resolution.
    var roundedMs: Int { Int((self / .milliseconds(1)).rounded()) }
}
