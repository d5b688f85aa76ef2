import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// Automatic reconnecting over real sockets: the test gateway drops, restarts, refuses and unpairs;
/// the connection waits, retries, pauses and comes back. Delays are tens of milliseconds, and every
/// wait is on the connection's state stream with a generous timeout (the machine may be loaded), so
/// timing assertions are lower bounds or counts that load can only make smaller.
@Suite("Automatic reconnect over a real socket")
struct ReconnectTests {
    /// 20 ms, 40 ms, capped at 50 ms, no jitter: fast and exact.
    static let fast = ReconnectPolicy(
        initialDelay: .milliseconds(20), maxDelay: .milliseconds(50), jitter: .none, stableAfter: .zero)

    /// A gateway that accepts and at once drops the connection is retried ever more slowly: the backoff
    /// only starts again from the first step after a connection that lasted `stableAfter`.
    @Test func aFlappingGatewayIsNotRetriedEveryHalfSecond() async throws {
        try await withTestGateway { gateway in
            let policy = ReconnectPolicy(
                initialDelay: .milliseconds(20), maxDelay: .seconds(1), jitter: .none, stableAfter: .seconds(30))
            let connection = try Harness.connection(to: gateway, reconnect: policy)
            let states = StateRecorder(connection)
            try await connection.connect()
            var attempts: [Int] = []
            for _ in 0..<3 {
                let mark = states.entries.count
                await gateway.dropAllConnections()
                let waiting = try #require(
                    await states.first(from: mark) { $0.reconnectStatus != nil }?.reconnectStatus)
                attempts.append(waiting.attempt)
                #expect(await eventually { await connection.state.isConnected })
            }
            #expect(attempts == [1, 2, 3])
            await connection.disconnect()
        }
    }

    @Test func reconnectsByItselfAfterTheGatewayDropsTheConnection() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            let events = EventRecorder(connection)
            let states = StateRecorder(connection)
            let first = try await connection.connect()

            await gateway.dropAllConnections()
            let waiting = try #require(await states.first { $0.reconnectStatus != nil }?.reconnectStatus)
            #expect(waiting.attempt == 1)
            #expect(waiting.cause == .disconnected(.connectionLost))
            #expect(waiting.delay == .milliseconds(20))

            let generation = first.generation
            let back = try #require(await states.first { ($0.session?.generation ?? 0) > generation }?.session)
            #expect(await connection.state == .connected(back))
            #expect(try await connection.request("health") != nil)
            #expect(await gateway.connectionCount() == 1)
            // Subscribers heard the whole story, with a `connected` for each socket.
            #expect(await eventually { events.events.filter(\.isConnected).count == 2 })
            #expect(events.contains { $0 == .disconnected(.connectionLost) })
            await connection.disconnect()
        }
    }

    @Test func theBackoffGrowsWhileAttemptsFailAndStartsOverAfterAStableConnection() async throws {
        try await withTestGateway { gateway in
            let policy = ReconnectPolicy(
                initialDelay: .milliseconds(20), maxDelay: .seconds(5), jitter: .none, stableAfter: .milliseconds(300))
            let connection = try Harness.connection(to: gateway, reconnect: policy)
            let states = StateRecorder(connection)
            let first = try await connection.connect()

            // Retryable refusals without a hint (UNAVAILABLE, close 1013): the backoff decides.
            let busy = ErrorShape(code: .unavailable, message: "busy")
            await gateway.setFaults(
                FaultPlan(rejectConnect: busy, rejectConnectCloseCode: GatewayCloseCode.tryAgainLater))
            await gateway.dropAllConnections()
            #expect(await states.first(timeout: .seconds(30)) { ($0.reconnectStatus?.attempt ?? 0) >= 4 } != nil)
            let statuses = Array(states.statuses.prefix(4))
            #expect(statuses.map(\.attempt) == [1, 2, 3, 4])
            #expect(statuses.map(\.delay) == [20, 40, 80, 160].map { .milliseconds($0) })
            #expect(statuses.first?.cause == .disconnected(.connectionLost))
            for status in statuses.dropFirst() {
                #expect(status.cause == .attemptFailed(.gatewayUnavailable(retryAfterMs: nil, message: "busy")))
            }

            await gateway.setFaults(FaultPlan())
            let generation = first.generation
            #expect(await states.first { ($0.session?.generation ?? 0) > generation } != nil)

            // The next loss, once the connection has lasted, starts from the first step again.
            try await Task.sleep(for: .milliseconds(400))
            let mark = states.entries.count
            await gateway.dropAllConnections()
            let again = try #require(await states.first(from: mark) { $0.reconnectStatus != nil }?.reconnectStatus)
            #expect(again.attempt == 1)
            #expect(again.delay == .milliseconds(20))
            await connection.disconnect()
        }
    }

    @Test func aRestartingGatewayIsGivenTheTimeItAskedFor() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            let states = StateRecorder(connection)
            let first = try await connection.connect()
            let attemptsBefore = await gateway.receivedConnectParams().count

            let start = ContinuousClock.now
            await gateway.shutdown(restartExpectedMs: 700)
            let waiting = try #require(await states.first { $0.reconnectStatus != nil }?.reconnectStatus)
            #expect(waiting.cause == .disconnected(.gatewayRestarting(restartExpectedMs: 700)))
            #expect(waiting.delay >= .milliseconds(700))

            let generation = first.generation
            #expect(await states.first { ($0.session?.generation ?? 0) > generation } != nil)
            #expect(ContinuousClock.now - start >= .milliseconds(700))
            // One attempt, after the wait: none at the 20 ms backoff.
            #expect(await gateway.receivedConnectParams().count == attemptsBefore + 1)
            await connection.disconnect()
        }
    }

    @Test func aStartingGatewaysRetryAfterIsHonoured() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            let states = StateRecorder(connection)
            let first = try await connection.connect()

            var starting = FaultPlan.startupSidecars
            starting.rejectConnect?.retryAfterMs = 400
            await gateway.setFaults(starting)
            await gateway.dropAllConnections()
            let refused = try #require(
                await states.first { state in
                    guard case .attemptFailed? = state.reconnectStatus?.cause else { return false }
                    return true
                }?.reconnectStatus
            )
            #expect(
                refused.cause
                    == .attemptFailed(
                        .gatewayUnavailable(retryAfterMs: 400, message: "gateway starting; retry shortly")))
            #expect(refused.delay >= .milliseconds(400))

            // At the 20 ms backoff a second would see ~50 attempts; honouring 400 ms, at most 3.
            let before = await gateway.receivedConnectParams().count
            try await Task.sleep(for: .seconds(1))
            #expect(await gateway.receivedConnectParams().count - before <= 3)

            await gateway.setFaults(FaultPlan())
            let generation = first.generation
            #expect(await states.first { ($0.session?.generation ?? 0) > generation } != nil)
            await connection.disconnect()
        }
    }

    @Test func aRefusedTokenPausesReconnectingUntilThePersonActs() async throws {
        try await withTestGateway { gateway in
            // Without the retry with the saved device token (see the next test), the refusal stands.
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast) {
                $0.retriesWithDeviceToken = false
            }
            let states = StateRecorder(connection)
            try await connection.connect()

            // The gateway's token changes: 4001, one attempt with the old token, refused, paused.
            await gateway.rotateSharedAuth(to: .token("rotated"))
            let paused = await states.first { state in
                if case .failed = state { return true }
                return false
            }
            guard case .failed(.authFailed(let failure))? = paused else {
                Issue.record("expected a paused auth failure, got \(String(describing: paused))")
                return
            }
            #expect(failure.code == .authTokenMismatch)
            #expect(states.statuses.first?.cause == .disconnected(.authChanged))

            // No retry storm: 600 ms is 30 backoff periods.
            let attempts = await gateway.receivedConnectParams().count
            try await Task.sleep(for: .milliseconds(600))
            #expect(await gateway.receivedConnectParams().count == attempts)
            #expect(await gateway.connectionCount() == 0)
            #expect(await connection.state == paused)

            // The person acts (here the gateway takes the old token back), then asks to try again.
            await gateway.rotateSharedAuth(to: .token("test-token"))
            await connection.reconnectNow()
            #expect(await connection.state.isConnected)
            await connection.disconnect()
        }
    }

    @Test func aRotatedSharedTokenIsRiddenOutWithTheSavedDeviceToken() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            let first = try await connection.connect()
            let states = StateRecorder(connection)

            // 4001, then the old token is refused; the gateway offers the retry with this device's
            // token (still valid: device tokens survive a rotation), and the connection is back.
            await gateway.rotateSharedAuth(to: .token("rotated"))
            let back = await states.first { ($0.session?.generation ?? 0) > first.generation }
            #expect(back != nil)
            #expect(await connection.signedInWithSavedDeviceToken)
            #expect(!states.states.contains { if case .failed = $0 { true } else { false } })
            await connection.disconnect()
        }
    }

    @Test func pairingRequiredPausesWithOneRequestUntilApproved() async throws {
        try await withTestGateway(.init(pairing: .requireApproval)) { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            let states = StateRecorder(connection)

            // A first connect that needs pairing reports it and starts no loop.
            do throws(GatewayError) {
                try await connection.connect()
                Issue.record("the first connect should need pairing")
            } catch {
                guard case .pairingRequired = error else { throw error }
            }
            let firstRequest = try #require(await gateway.pendingPairingRequests().first)
            await gateway.approvePairing(requestId: firstRequest)
            let session = try await connection.connect()

            // Unpaired on the gateway host, then the socket drops: the reconnect needs pairing again.
            await gateway.removePairedDevice(deviceId: session.deviceId)
            let mark = states.entries.count
            await gateway.dropAllConnections()
            let paused = await states.first(from: mark) { state in
                if case .failed(.pairingRequired) = state { return true }
                return false
            }
            #expect(paused != nil)
            let pending = await gateway.pendingPairingRequests()
            #expect(pending.count == 1)

            // Paused: the request is not replaced by retries, and no socket is opened.
            let attempts = await gateway.receivedConnectParams().count
            try await Task.sleep(for: .milliseconds(600))
            #expect(await gateway.pendingPairingRequests() == pending)
            #expect(await gateway.receivedConnectParams().count == attempts)
            #expect(await gateway.connectionCount() == 0)

            // Approved on the host: one try brings it back.
            await gateway.approvePairing(requestId: try #require(pending.first))
            await connection.reconnectNow()
            #expect(await connection.state.isConnected)
            #expect(await gateway.connectionCount() == 1)
            await connection.disconnect()
        }
    }

    @Test func aLivenessTimeoutReconnects() async throws {
        let script = HostileScript(policy: HostileScript.policy(tickIntervalMs: 100), answersPings: false)
        try await withHostileGateway(script) { gateway in
            let connection = try Harness.connection(url: gateway.url, reconnect: Self.fast)
            let states = StateRecorder(connection)
            let first = try await connection.connect()

            let waiting = try #require(await states.first { $0.reconnectStatus != nil }?.reconnectStatus)
            #expect(waiting.cause == .disconnected(.tickTimeout(silenceMs: 200)))
            let generation = first.generation
            #expect(await states.first { ($0.session?.generation ?? 0) > generation } != nil)
            await connection.disconnect()
        }
    }
}

extension GatewayEvent {
    var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }
}
