import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Synchronization
import Testing

@testable import OpenClawGateway

/// The connection's long-lived work (readers, the clock, socket opens) belongs to one owner task: when
/// `disconnect()` returns, none of it runs on, and a connection no one holds is not kept alive by it.
@Suite("Connection lifetime")
struct ConnectionLifetimeTests {
    @Test func disconnectingWhileASocketOpensCancelsTheOpenBeforeReturning() async throws {
        let transport = HangingTransport()
        let connection = try Harness.connection(url: "ws://127.0.0.1:9/", transport: transport)
        async let attempt = Self.outcome { () async throws(GatewayError) in try await connection.connect() }
        #expect(await eventually { transport.started })
        await connection.disconnect()
        #expect(transport.cancelled, "the open still ran after disconnect() returned")
        #expect(await attempt == .failure(.connectionLost(.closedByClient)))
        #expect(await connection.owner == nil)
    }

    @Test func afterDisconnectNoTimerIsArmedAndNoWorkRuns() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            try await connection.connect()
            // Connected: the liveness watch is armed and the socket's reader runs.
            #expect(await connection.clock.token(of: .liveness) != nil)
            #expect(await connection.owner != nil)
            await connection.disconnect()
            #expect(await connection.owner == nil, "the owner (reader, clock) was stopped and awaited")
            #expect(await connection.clock.earliest == nil)
        }
    }

    @Test func disconnectingDuringAReconnectWaitStopsItsTimer() async throws {
        try await withTestGateway { gateway in
            // A wait long enough that only its timer could end it.
            let policy = ReconnectPolicy(initialDelay: .seconds(60), maxDelay: .seconds(60), jitter: .none)
            let connection = try Harness.connection(to: gateway, reconnect: policy)
            let states = StateRecorder(connection)
            try await connection.connect()
            await gateway.dropAllConnections()
            #expect(await states.first { $0.reconnectStatus != nil } != nil)
            #expect(await connection.clock.token(of: .reconnect) != nil)
            await connection.disconnect()
            #expect(await connection.clock.token(of: .reconnect) == nil)
            #expect(await connection.owner == nil)
        }
    }

    /// Requests with the same timeout, one after another, leave the clock asleep: no timer (and no
    /// task) per request.
    @Test func manyRequestsInFlightDoNotWakeTheClockEach() async throws {
        try await withTestGateway { gateway in
            let connection = try await RequestAndEventTests.connectionIgnoringSessionsList(gateway)
            let wakeUpsBefore = await connection.clock.wakeUps
            await withDiscardingTaskGroup { group in
                for _ in 0..<50 {
                    group.addTask {
                        _ = try? await connection.request("sessions.list", params: [:], timeout: .seconds(60))
                    }
                }
                #expect(await eventually { await connection.pending.count == 50 })
                // The first request may wake it, and a liveness tick re-armed under load; not 50.
                #expect(await connection.clock.wakeUps - wakeUpsBefore < 5, "the clock was woken for each request")
                await connection.disconnect()
            }
            #expect(await connection.pending.count == 0)
        }
    }

    @Test func aConnectionNoOneHoldsIsReleasedWhileConnected() async throws {
        try await withTestGateway { gateway in
            weak var released: GatewayConnection?
            do {
                let connection = try Harness.connection(to: gateway)
                try await connection.connect()
                released = connection
            }
            #expect(await eventually { released == nil }, "the connection's own work kept it alive")
        }
    }

    static func outcome(
        _ body: () async throws(GatewayError) -> GatewaySession
    ) async -> Result<GatewaySession, GatewayError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}

/// A transport whose `connect` never completes until cancelled.
private final class HangingTransport: WebSocketTransport, Sendable {
    private struct State {
        var started = false
        var cancelled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    var started: Bool { state.withLock { $0.started } }
    var cancelled: Bool { state.withLock { $0.cancelled } }

    func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    state.started = true
                    if Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
        throw .other("cancelled")
    }
}
