import Observation
import OpenClawGateway

/// The "approve this device" screen: shows the command to run on the gateway host and waits for the
/// approval without hammering the gateway.
///
/// The gateway keeps one pending request per device and every connection attempt refreshes it (and
/// notifies its operators again), so attempts follow a slow, growing ``PairingRetrySchedule``; the
/// user's "I approved it" cuts the current wait short, and only one attempt is ever in flight, so
/// tapping repeatedly cannot start a storm of attempts.
@MainActor
@Observable
public final class PairingModel {
    public enum Phase: Sendable, Equatable {
        /// Waiting before the next attempt.
        case waiting(next: Duration)
        /// An attempt is in flight.
        case checking
        case approved
        /// Something other than a pending approval stopped the connection (token changed, identity
        /// rejected …): the person has to act elsewhere.
        case failed(GatewayError)
        case cancelled
    }

    public enum Outcome: Sendable, Equatable {
        case approved(GatewaySession)
        case failed(GatewayError)
        case cancelled
    }

    /// The request as the gateway last described it.
    public private(set) var request: GatewayError.PairingRequest
    public private(set) var phase: Phase
    /// Attempts made since the screen appeared.
    public private(set) var attempts = 0
    /// A passing problem while waiting (gateway unreachable for a moment); the wait goes on.
    public private(set) var transientProblem: String?

    /// The exact command to run on the gateway host.
    public var approveCommand: String { request.approveCommand }

    /// Whether "I approved it" would do anything now (not while an attempt is in flight).
    public var canCheckNow: Bool {
        if case .waiting = phase { return true }
        return false
    }

    @ObservationIgnored private let connection: GatewayConnection
    @ObservationIgnored private let schedule: PairingRetrySchedule
    @ObservationIgnored private let sleep: Sleep
    @ObservationIgnored private var wait: Task<Void, Never>?
    @ObservationIgnored private var isCancelled = false

    public init(
        request: GatewayError.PairingRequest,
        connection: GatewayConnection,
        schedule: PairingRetrySchedule = PairingRetrySchedule(),
        sleep: @escaping Sleep
    ) {
        self.request = request
        self.connection = connection
        self.schedule = schedule
        self.sleep = sleep
        self.phase = .waiting(next: schedule.delay(afterAttempt: 0))
    }

    /// Waits and retries until the device is approved, another error ends it, or ``cancel()``.
    public func waitForApproval() async -> Outcome {
        var waits = 0
        while !isCancelled {
            let delay = schedule.delay(afterAttempt: waits)
            waits += 1
            phase = .waiting(next: delay)
            // Unstructured so that `cancel()`, called from elsewhere, cuts the wait short; awaited here.
            let sleeping = Task { [sleep] in _ = try? await sleep(delay) }
            wait = sleeping
            await sleeping.value
            wait = nil
            guard !isCancelled else { break }

            phase = .checking
            attempts += 1
            do {
                let session = try await connection.connect()
                phase = .approved
                return .approved(session)
            } catch {
                switch error {
                case .pairingRequired(let refreshed):
                    transientProblem = nil
                    // The same pending request is refreshed; keep showing its id if this answer lacks one.
                    if refreshed.requestId != nil { request = refreshed }
                case let error where error.isRetryable:
                    transientProblem = error.message
                default:
                    phase = .failed(error)
                    return .failed(error)
                }
            }
        }
        phase = .cancelled
        return .cancelled
    }

    /// "I approved it": attempt now instead of at the end of the current wait.
    public func checkNow() {
        wait?.cancel()
    }

    /// Stops waiting (the person chose another gateway or closed the screen).
    public func cancel() {
        isCancelled = true
        wait?.cancel()
    }
}
