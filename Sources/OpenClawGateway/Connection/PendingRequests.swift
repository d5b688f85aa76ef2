import OpenClawProtocol
import Synchronization

/// Requests sent and not yet answered, matched by id, and the socket new requests may go out on.
/// Each request is resolved exactly once: by its response, its timeout, its cancellation, a failed
/// write, or the end of its socket.
///
/// Shared, behind one lock, by the callers (who register and send requests from their own executor),
/// the socket's event loop (which resolves a response as it is read, see `ResponseShortcut`), and the
/// connection actor (which fails them all when the socket ends): a request reaches its caller without
/// a hop through the actor. The route and the table change under the same lock, so a request is
/// either registered on the socket still open, or refused at once: none is added after its socket's
/// requests were failed, to wait for its timeout.
///
/// Timeouts are deadlines kept here, not a task per request: the connection's clock is asked to look
/// by the earliest deadline and resolves what has expired (see `expire(at:)`); creating and cancelling
/// a task for every request cost more than the rest of a `health` round trip's bookkeeping.
final class PendingRequests: Sendable {
    typealias Completion = CheckedContinuation<Result<ResponseFrame, GatewayError>, Never>

    private struct Entry {
        let method: String
        let generation: Int
        let continuation: Completion
        let deadline: ContinuousClock.Instant
        let timeoutMs: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var route: RequestRoute?
        /// The deadline the clock was asked to look by; nil when it was not.
        var armed: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let clock: ConnectionClock

    /// A table whose timeouts `clock` watches (it calls `expire(at:)`).
    init(clock: ConnectionClock = ConnectionClock()) { self.clock = clock }

    /// Why a request could not be registered.
    enum Refusal: Error, Equatable {
        /// No socket is open for requests, or not the one the request was meant for.
        case notConnected
    }

    var count: Int { state.withLock { $0.entries.count } }

    func contains(_ id: String) -> Bool { state.withLock { $0.entries[id] != nil } }

    /// The socket requests go out on now; nil while not connected.
    var route: RequestRoute? { state.withLock { $0.route } }

    /// Requests may go out on `route` from now on.
    func open(_ route: RequestRoute) { state.withLock { $0.route = route } }

    /// No request may be registered until a socket is opened again; those pending stay pending.
    func closeRoute() { state.withLock { $0.route = nil } }

    /// Registers a request on socket `generation` that times out `timeout` from now, if that socket
    /// is still the one open for requests.
    func add(
        id: String, method: String, generation: Int, timeout: Duration, continuation: Completion
    ) throws(Refusal) {
        let (refused, wake) = state.withLock { state -> (Bool, ContinuousClock.Instant?) in
            guard state.route?.generation == generation else { return (true, nil) }
            // Read under the lock: deadlines of equal timeouts are registered in order, and only the
            // first asks the clock anything.
            let deadline = ContinuousClock.now + timeout
            state.entries[id] = Entry(
                method: method, generation: generation, continuation: continuation, deadline: deadline,
                timeoutMs: timeout.milliseconds)
            return (false, arm(for: deadline, &state) ? deadline : nil)
        }
        if refused { throw .notConnected }
        if let wake { clock.wakeForRequests(by: wake) }
    }

    /// Resolves one request; false when no such request is pending (a late or unknown response).
    @discardableResult
    func resolve(id: String, with result: Result<ResponseFrame, GatewayError>) -> Bool {
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: id) }) else { return false }
        entry.continuation.resume(returning: result)
        return true
    }

    /// Resolves the request `response` answers, if it was sent on socket `generation`: what the
    /// socket's event loop calls as it reads a response. False when it answers no request of that
    /// socket. `traced` runs first, only when it resolves one, so the trace shows the response before
    /// anything its caller does next.
    func resolve(_ response: ResponseFrame, onSocket generation: Int, traced: () -> Void = {}) -> Bool {
        let entry = state.withLock { state -> Entry? in
            guard state.entries[response.id]?.generation == generation else { return nil }
            return state.entries.removeValue(forKey: response.id)
        }
        guard let entry else { return false }
        traced()
        entry.continuation.resume(returning: .success(response))
        return true
    }

    /// Fails every request and closes the route (the socket is gone): nothing waits for an answer
    /// that cannot come, and no request is registered on that socket afterwards.
    func failAll(with error: GatewayError) {
        let all = state.withLock { state -> [Entry] in
            defer { state.entries.removeAll() }
            state.route = nil
            state.armed = nil
            return Array(state.entries.values)
        }
        for entry in all { entry.continuation.resume(returning: .failure(error)) }
    }

    /// Fails every request whose deadline has passed by `now` with a timeout naming its method, and
    /// asks the clock to look again by the next deadline, if any.
    func expire(at now: ContinuousClock.Instant) {
        let (expired, next) = state.withLock { state -> ([Entry], ContinuousClock.Instant?) in
            let expired = state.entries.filter { $0.value.deadline <= now }
            for id in expired.keys { state.entries.removeValue(forKey: id) }
            if let armed = state.armed, armed <= now { state.armed = nil }
            let next = state.entries.values.lazy.map(\.deadline).min()
            guard let next, arm(for: next, &state) else { return (Array(expired.values), nil) }
            return (Array(expired.values), next)
        }
        if let next { clock.wakeForRequests(by: next) }
        for entry in expired {
            entry.continuation.resume(returning: .failure(.timeout(method: entry.method, afterMs: entry.timeoutMs)))
        }
    }

    /// When the clock looks at the requests next; nil when it was not asked to.
    var timerDeadline: ContinuousClock.Instant? { state.withLock { $0.armed } }

    /// Whether the clock must be asked to look by `deadline`: only when it was not asked to, or for
    /// later (requests made one after another with the same timeout ask nothing of it).
    private func arm(for deadline: ContinuousClock.Instant, _ state: inout State) -> Bool {
        if let armed = state.armed, armed <= deadline { return false }
        state.armed = deadline
        return true
    }
}

/// The socket requests go out on while connected: its generation, its writer, and the largest frame
/// the gateway accepts (`policy.maxPayload`).
struct RequestRoute: Sendable {
    let generation: Int
    let writer: OutboundWriter
    let maxOutboundBytes: Int
}
