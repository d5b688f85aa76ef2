#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a ``GatewayConnection`` waits between automatic reconnect attempts.
///
/// Exponential backoff with jitter: attempt *n* waits `initialDelay × multiplierⁿ⁻¹`, capped at
/// `maxDelay`, then spread by ``Jitter``. The defaults (0.5 s doubling to 30 s) are the official Swift
/// client's numbers. The delay computation is a pure function of the attempt number and a random value
/// in `0..<1`, so it is tested without clocks or sockets; the connection feeds it the system generator.
///
/// Hints from the gateway replace the backoff for one attempt: a `shutdown` event's
/// `restartExpectedMs` and an `UNAVAILABLE` refusal's `retryAfterMs` (see ``hintedDelay(_:randomUnit:)``).
public struct ReconnectPolicy: Sendable, Equatable {
    /// How the computed delay is spread, so that many clients cut off at the same moment (a gateway
    /// restart) do not come back in lockstep.
    public enum Jitter: Sendable, Equatable {
        /// Exactly the computed delay (tests, diagnostics).
        case none
        /// Uniform in `0...delay`: the widest spread, but an attempt may come at once.
        case full
        /// Uniform in `delay/2...delay`: spread, yet never hammering a gateway that just went away.
        case equal
    }

    /// The delay before the first attempt after a connection ended.
    public var initialDelay: Duration
    /// No backoff delay exceeds this (before jitter).
    public var maxDelay: Duration
    /// Growth per failed attempt; values below 1 are treated as 1.
    public var multiplier: Double
    /// How each computed delay is spread at random.
    public var jitter: Jitter
    /// A connection must stay up this long for the backoff to start again from the first step: a
    /// gateway that accepts and at once drops us (a crash loop, a proxy timing out) is then retried
    /// ever more slowly instead of every half second.
    public var stableAfter: Duration

    /// Hints from the gateway are honoured up to this long; a larger value is taken as a mistake
    /// rather than a reason to stay offline for hours.
    public static let maximumHint: Duration = .seconds(600)
    /// Hinted waits are stretched by up to this fraction (never shortened), to spread the clients
    /// that all read the same `restartExpectedMs`.
    public static let hintSpread = 0.1

    public init(
        initialDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        multiplier: Double = 2,
        jitter: Jitter = .equal,
        stableAfter: Duration = .seconds(10)
    ) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.stableAfter = stableAfter
    }

    /// 0.5 s, doubling, capped at 30 s, equal jitter: what apps and the interactive terminal use.
    public static let standard = ReconnectPolicy()

    /// The wait before attempt `attempt` (1 is the first attempt after the connection ended).
    ///
    /// - Parameters:
    ///   - attempt: the attempt's number, from 1; values below 1 count as 1.
    ///   - randomUnit: a value in `0..<1` (clamped); the jitter is derived from it alone, so the same
    ///     inputs always give the same delay.
    public func delay(forAttempt attempt: Int, randomUnit: Double) -> Duration {
        let initial = max(0, initialDelay.inSeconds)
        let cap = max(initial, maxDelay.inSeconds)
        let growth = max(1, multiplier.isFinite ? multiplier : 1)
        // pow may reach infinity for attempt 10,000; the cap takes it back to a finite delay.
        let exponent = Double(max(0, attempt - 1))
        let base = initial > 0 ? min(initial * pow(growth, exponent), cap) : 0
        let unit = Self.clampedUnit(randomUnit)
        switch jitter {
        case .none: return .seconds(base)
        case .full: return .seconds(base * unit)
        case .equal: return .seconds(base / 2 + base / 2 * unit)
        }
    }

    /// ``delay(forAttempt:randomUnit:)`` with the randomness drawn from `generator` (seedable in tests).
    public func delay(forAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        delay(forAttempt: attempt, randomUnit: Double.random(in: 0..<1, using: &generator))
    }

    /// The wait when the gateway said how long to wait: at least `hint` (capped at ``maximumHint``),
    /// stretched by up to ``hintSpread`` of it.
    public func hintedDelay(_ hint: Duration, randomUnit: Double) -> Duration {
        let seconds = min(max(0, hint.inSeconds), Self.maximumHint.inSeconds)
        return .seconds(seconds + seconds * Self.hintSpread * Self.clampedUnit(randomUnit))
    }

    private static func clampedUnit(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return min(max(value, 0), 1)
    }
}

/// Why a connection is waiting to reconnect, and when it will try: what a UI needs to say
/// "Reconnecting in 4 s (attempt 3)…".
public struct ReconnectStatus: Sendable, Equatable, CustomStringConvertible {
    /// What made the connection wait.
    public enum Cause: Sendable, Equatable, CustomStringConvertible {
        /// The established connection ended.
        case disconnected(DisconnectReason)
        /// The previous attempt failed with an error that retrying can fix.
        case attemptFailed(GatewayError)

        public var description: String {
            switch self {
            case .disconnected(let reason): return reason.description
            case .attemptFailed(let error): return error.message
            }
        }
    }

    /// The number of the attempt being waited for: 1, then 2, 3 … while attempts fail. It starts again
    /// from 1 when the connection that ended had stayed up for ``ReconnectPolicy/stableAfter``; after a
    /// connection that dropped sooner it keeps counting, so the waits keep growing.
    public let attempt: Int
    /// How long this wait is.
    public let delay: Duration
    /// When the attempt starts (unless ``GatewayConnection/reconnectNow()`` or `connect()` comes first).
    public let nextAttemptAt: ContinuousClock.Instant
    /// Why the connection is waiting: it ended, or the last attempt failed.
    public let cause: Cause

    public init(attempt: Int, delay: Duration, nextAttemptAt: ContinuousClock.Instant, cause: Cause) {
        self.attempt = attempt
        self.delay = delay
        self.nextAttemptAt = nextAttemptAt
        self.cause = cause
    }

    /// Whole seconds until the attempt, rounded up (0 once it is due).
    public func secondsRemaining(now: ContinuousClock.Instant = .now) -> Int {
        let remaining = (nextAttemptAt - now).inSeconds
        return remaining > 0 ? Int(remaining.rounded(.up)) : 0
    }

    /// "reconnecting in 4 s (attempt 3): the connection dropped".
    public func summary(now: ContinuousClock.Instant = .now) -> String {
        let seconds = secondsRemaining(now: now)
        let when = seconds > 0 ? "in \(seconds) s" : "now"
        return "reconnecting \(when) (attempt \(attempt)): \(cause)"
    }

    public var description: String { summary() }
}

extension Duration {
    /// The duration in seconds, as a floating-point number (delay arithmetic).
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
