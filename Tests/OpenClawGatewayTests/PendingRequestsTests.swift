import OpenClawProtocol
import Testing

@testable import OpenClawGateway

/// The table of requests shared by callers, the socket's event loop and the connection actor: each
/// request resolves exactly once, and only on the socket it was sent on.
@Suite("Pending requests")
struct PendingRequestsTests {
    typealias Outcome = Result<ResponseFrame, GatewayError>

    @Test func aRequestResolvesOnceAndALateAnswerFindsNothing() async throws {
        let table = PendingRequests()
        table.open(Self.route(generation: 1))
        let request = try await Self.register("a", on: table, generation: 1)
        #expect(table.resolve(ResponseFrame(id: "a", ok: true), onSocket: 1))
        #expect(!table.resolve(id: "a", with: .failure(.cancelled)), "already resolved")
        #expect(!table.resolve(ResponseFrame(id: "a", ok: false), onSocket: 1))
        #expect(try await request.value.get().ok)
        #expect(table.count == 0)
    }

    @Test func aTimeoutAndAResponseRaceAndOnlyTheFirstCounts() async throws {
        let table = PendingRequests()
        table.open(Self.route(generation: 1))
        let timedOut = try await Self.register("late", on: table, generation: 1, timeout: .seconds(30))
        let answered = try await Self.register("early", on: table, generation: 1, timeout: .seconds(60))
        #expect(table.resolve(ResponseFrame(id: "early", ok: true), onSocket: 1))
        table.expire(at: .now + .seconds(45))
        #expect(!table.resolve(ResponseFrame(id: "late", ok: true), onSocket: 1), "timed out first")
        #expect(await timedOut.value == .failure(.timeout(method: "health", afterMs: 30_000)))
        #expect(try await answered.value.get().ok)
        #expect(table.count == 0)
    }

    @Test(.timeLimit(.minutes(1))) func theClockTimesARequestOutOnItsOwn() async throws {
        let clock = ConnectionClock()
        let table = PendingRequests(clock: clock)
        table.open(Self.route(generation: 1))
        try await withThrowingDiscardingTaskGroup { group in
            // What the connection's owner runs for the requests (see `GatewayConnection.runningOwner`).
            group.addTask { await clock.run { due in if due.requests { table.expire(at: .now) } } }
            let request = try await Self.register("slow", on: table, generation: 1, timeout: .milliseconds(20))
            #expect(await request.value == .failure(.timeout(method: "health", afterMs: 20)))
            #expect(table.count == 0)
            group.cancelAll()
        }
    }

    @Test func onlyTheEarliestDeadlineSetsTheTimer() async throws {
        let table = PendingRequests()
        table.open(Self.route(generation: 1))
        _ = try await Self.register("first", on: table, generation: 1, timeout: .seconds(30))
        let armed = try #require(table.timerDeadline)
        _ = try await Self.register("later", on: table, generation: 1, timeout: .seconds(60))
        #expect(table.timerDeadline == armed)
        _ = try await Self.register("sooner", on: table, generation: 1, timeout: .seconds(5))
        #expect(try #require(table.timerDeadline) < armed)
        table.failAll(with: .notConnected)
    }

    @Test func aResponseOnAnotherSocketResolvesNothing() async throws {
        let table = PendingRequests()
        table.open(Self.route(generation: 2))
        let request = try await Self.register("x", on: table, generation: 2)
        #expect(!table.resolve(ResponseFrame(id: "x", ok: true), onSocket: 1))
        #expect(table.contains("x"))
        #expect(table.resolve(ResponseFrame(id: "x", ok: true), onSocket: 2))
        #expect(try await request.value.get().ok)
    }

    @Test func theSocketsEndFailsItsRequestsAndRefusesNewOnes() async throws {
        let table = PendingRequests()
        table.open(Self.route(generation: 1))
        let first = try await Self.register("one", on: table, generation: 1)
        let second = try await Self.register("two", on: table, generation: 1)
        table.failAll(with: .connectionLost(.connectionLost))
        #expect(await first.value == .failure(.connectionLost(.connectionLost)))
        #expect(await second.value == .failure(.connectionLost(.connectionLost)))
        #expect(table.route == nil)
        await #expect(throws: PendingRequests.Refusal.notConnected) {
            try await Self.register("three", on: table, generation: 1)
        }
        table.open(Self.route(generation: 2))
        await #expect(throws: PendingRequests.Refusal.notConnected, "registered for the old socket") {
            try await Self.register("four", on: table, generation: 1)
        }
    }

    // MARK: - Helpers

    /// A route whose writer goes nowhere: the table only keeps it.
    static func route(generation: Int) -> RequestRoute {
        RequestRoute(
            generation: generation, writer: OutboundWriter(socket: NowhereSocket()) { _ in }, maxOutboundBytes: 1024)
    }

    /// Registers request `id` and returns the task that waits for its outcome, once it is in the table.
    static func register(
        _ id: String, on table: PendingRequests, generation: Int, timeout: Duration = .seconds(30)
    ) async throws(PendingRequests.Refusal) -> Task<Outcome, Never> {
        let registered = AsyncStream<PendingRequests.Refusal?>.makeStream()
        let task = Task {
            await withCheckedContinuation { continuation in
                do throws(PendingRequests.Refusal) {
                    try table.add(
                        id: id, method: "health", generation: generation, timeout: timeout, continuation: continuation)
                    registered.continuation.yield(nil)
                } catch {
                    registered.continuation.yield(error)
                    continuation.resume(returning: .failure(.notConnected))
                }
            }
        }
        for await refusal in registered.stream {
            if let refusal { throw refusal }
            break
        }
        return task
    }
}

/// A socket that is never written to.
private struct NowhereSocket: WebSocketConnection {
    let events = TransportEvents.makeSource().0
    var flow: TransportFlowStats { TransportFlowStats() }
    var lastReceived: ContinuousClock.Instant { .now }
    func sendPing() async {}
    func send(text: String) async throws(TransportError) {}
    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) { completion(false) }
    func close(code: Int) async {}
}
